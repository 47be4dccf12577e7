import { Links, Meta, Outlet, Scripts, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { savedPages } from './saved'

export function Layout({ children }: { children: ReactNode }) {
  // The saved page's own stylesheet links and inline CSS (a public page inlines its CSS): the same head as Rankwell's.
  const page = savedPages.get(useLocation().pathname)
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {page?.stylesheets.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {page?.styles.map((css, i) => <style key={i} dangerouslySetInnerHTML={{ __html: css }} />)}
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}
