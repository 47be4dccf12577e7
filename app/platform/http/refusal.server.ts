/**
 * Refusals answered before a request reaches Remix (server.ts): a cross-site form post (403) or a body whose
 * Content-Length is over its limit (413). /api clients get JSON `{ message }`; a browser gets a small page that
 * says what happened and what to do, with a link back.
 */
import { escapeHtml } from '#app/platform/html'

export type Refusal = { status: 403 | 413; message: string }

const PAGES: Record<Refusal['status'], { title: string; advice: string }> = {
  403: {
    title: 'Request refused',
    advice:
      'This form was sent from another site, so Rankwell did not accept it. Open Rankwell again and send the form from there.',
  },
  413: {
    title: 'Request too large',
    advice: 'What you sent is larger than Rankwell accepts. Please shorten it and try again.',
  },
}

export function isApiPath(pathname: string) {
  return pathname === '/api' || pathname.startsWith('/api/')
}

/** The body and content type of a refusal for this path. */
export function renderRefusal(pathname: string, refusal: Refusal): { contentType: string; body: string } {
  if (isApiPath(pathname) || pathname.endsWith('.data'))
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ message: refusal.message }) }
  const page = PAGES[refusal.status]
  const body = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title} | Rankwell</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:6rem auto;padding:0 1rem;color:#0f172a}p{color:#475569;line-height:1.5}a{color:#4338ca}</style>
</head>
<body>
<main>
<p>${refusal.status}</p>
<h1>${page.title}</h1>
<p>${escapeHtml(refusal.message)} ${page.advice}</p>
<p><a href="/">Back to Rankwell</a></p>
</main>
</body>
</html>
`
  return { contentType: 'text/html; charset=utf-8', body }
}
