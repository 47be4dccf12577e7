import { robotsTxt } from '#app/features/marketing/seo'
import { getEnv } from '#app/platform/env.server'

/** GET /robots.txt: everything public may be crawled; the signed-in app and the API may not. */
export function loader() {
  return new Response(robotsTxt(getEnv().APP_URL), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
