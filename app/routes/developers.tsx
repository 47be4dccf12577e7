import { json, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { API_KEY_RATE_LIMIT } from '#app/features/accounts/api-auth.server'
import { API_SCOPE_LABELS, API_SCOPES } from '#app/features/accounts/api-keys'
import { ERROR_MEANINGS, type ErrorStatus } from '#app/features/developers/api-routes'
import { Code, Inline, TagSection } from '#app/features/developers/components/api-reference'
import { MCP_PATH, MCP_TOOLS, POST_RESOURCE_TEMPLATE } from '#app/features/developers/mcp-tools'
import { buildOpenApiDocument } from '#app/features/developers/openapi.server'
import { referenceView, type ReferenceDocument } from '#app/features/developers/reference'
import { seoMeta } from '#app/features/marketing/seo'
import { readingPage } from '#app/platform/http/cache'
import { getEnv } from '#app/platform/env.server'

/** The same for everyone, and nothing on it needs JavaScript: cacheable, sent without the app's scripts. */
export const handle = readingPage

/** /developers: the API reference, rendered on the server from the OpenAPI document (decision 0381). */
export function loader() {
  const appUrl = getEnv().APP_URL
  const doc = buildOpenApiDocument(appUrl) as unknown as ReferenceDocument
  const tags = referenceView(doc)
  return json(
    {
      appUrl,
      version: doc.info.version,
      intro: doc.info.description.split('\n\n')[0]!,
      tags: tags
        .map((t) => ({ ...t, operations: t.operations.filter((op) => !op.internal) }))
        .filter((t) => t.operations.length > 0),
      internal: tags.flatMap((t) => t.operations.filter((op) => op.internal)),
      rateLimit: API_KEY_RATE_LIMIT.limit,
    },
    { headers: { 'Cache-Control': 'public, max-age=300' } },
  )
}

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Rankwell API and MCP server for developers and AI agents',
    description:
      'The Rankwell API reference: personal API keys, scopes, errors, rate limits, idempotency and pagination, every endpoint with an example, and the MCP server for AI agents.',
    path: '/developers',
    matches,
  })

const ERROR_EXAMPLE = JSON.stringify(
  { message: 'Please enter a keyword.', errors: { query: ['Please enter a keyword.'] } },
  null,
  2,
)

/** The page's sections: their ids (anchors) and titles, for the headings and the "On this page" list. */
const SECTIONS = {
  authentication: 'Authentication: keys and tokens',
  scopes: 'Scopes',
  errors: 'Errors',
  'rate-limits': 'Rate limits',
  idempotency: 'Idempotency',
  pagination: 'Pagination',
  mcp: 'MCP server for AI agents',
  reference: 'Endpoints',
} as const

function Section({ id, children }: { id: keyof typeof SECTIONS; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-2xl font-bold text-slate-900">
        {SECTIONS[id]}
      </h2>
      {children}
    </section>
  )
}

export default function Developers() {
  const data = useLoaderData<typeof loader>()
  const mcpUrl = `${data.appUrl}${MCP_PATH}`
  const mcpConfig = JSON.stringify(
    { mcpServers: { rankwell: { url: mcpUrl, headers: { Authorization: 'Bearer rwk_your_key' } } } },
    null,
    2,
  )
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">Rankwell API and MCP server</h1>
      <p className="mt-3 text-lg text-slate-700">{data.intro}</p>
      <p className="mt-2 text-slate-700">
        Version {data.version}. The machine-readable document:{' '}
        <a href="/api/openapi.json" className="text-brand-700 underline">
          /api/openapi.json
        </a>{' '}
        (OpenAPI 3.1), for code generators and API tools.
      </p>

      <nav aria-label="On this page" className="card mt-8">
        <h2 className="text-base font-semibold text-slate-900">On this page</h2>
        <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
          {Object.entries(SECTIONS).map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`} className="text-brand-700 underline">
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <Section id="authentication">
        <p className="mt-2 text-slate-700">
          Create a personal API key on your{' '}
          <Link to="/profile" className="text-brand-700 underline">
            profile
          </Link>{' '}
          (API keys): give it a name and the scopes it needs. It is shown once; we store only its hash. Keys start with{' '}
          <code>rwk_</code>, so secret scanners recognise a leaked one; revoke it on your profile and it stops working
          at once. Send it as a Bearer token:
        </p>
        <Code label="A request with an API key">{`curl ${data.appUrl}/api/blogposts?limit=5 \\\n  -H "Authorization: Bearer rwk_your_key"`}</Code>
        <p className="mt-2 text-slate-700">
          The token <code>POST /api/login</code> answers works too (it holds every scope and lasts 30 days); a key is
          better for scripts and agents: limited to what it needs, revoked alone.
        </p>
      </Section>

      <Section id="scopes">
        <ul className="mt-2 space-y-1 text-slate-700">
          {API_SCOPES.map((scope) => (
            <li key={scope}>
              <code className="font-semibold">{scope}</code>: {API_SCOPE_LABELS[scope].hint}
            </li>
          ))}
        </ul>
        <p className="mt-2 text-slate-700">
          GET requests need <code>read</code>, changes need <code>write</code>, and publishing, unpublishing, approving
          or rejecting a post needs <code>publish</code>. A key without the scope an endpoint needs gets 403 with a
          message naming it.
        </p>
      </Section>

      <Section id="errors">
        <p className="mt-2 text-slate-700">
          Every error is JSON with a <code>message</code> for a person; a 400 adds <code>errors</code>, the message of
          each bad field by its name:
        </p>
        <Code label="An error answer">{ERROR_EXAMPLE}</Code>
        <ul className="mt-3 space-y-1 text-slate-700">
          {(Object.entries(ERROR_MEANINGS) as Array<[string, string]>)
            .filter(([status]) => [400, 401, 402, 403, 404, 409, 429, 502, 503].includes(Number(status) as ErrorStatus))
            .map(([status, meaning]) => (
              <li key={status}>
                <span className="font-mono font-semibold text-slate-900">{status}</span> <Inline text={meaning} />
              </li>
            ))}
        </ul>
      </Section>

      <Section id="rate-limits">
        <p className="mt-2 text-slate-700">
          {data.rateLimit} requests a minute per API key; beyond that, 429 with a <code>Retry-After</code> header (in
          seconds). Keyword searches and posts count against your plan’s monthly quota (402 when it is used up), and a
          few endpoints have limits of their own, stated with each.
        </p>
      </Section>

      <Section id="idempotency">
        <p className="mt-2 text-slate-700">
          Writing a post (<code>POST /api/creator</code>) takes an <code>Idempotency-Key</code> header: any unique
          string. A retry with the same key never writes a second post; it answers 200 with the first one’s status.
        </p>
      </Section>

      <Section id="pagination">
        <p className="mt-2 text-slate-700">
          Lists that page (<code>GET /api/blogposts</code>, <code>GET /api/saved-keywords</code>) take{' '}
          <code>limit</code> (1-500) and <code>cursor</code>, and answer <code>nextCursor</code>: pass it as{' '}
          <code>cursor</code> for the next page; it is <code>null</code> on the last one. <code>total</code> counts
          every match.
        </p>
      </Section>

      <Section id="mcp">
        <p className="mt-2 text-slate-700">
          Agents that speak the Model Context Protocol connect to <code>{mcpUrl}</code> (Streamable HTTP) with a
          personal API key as <code>Authorization: Bearer rwk_…</code>. A key with <code>read</code> only can look but
          not write posts. For a client set up with JSON:
        </p>
        <Code label="MCP client configuration">{mcpConfig}</Code>
        <p className="mt-2 text-slate-700">
          Publishing and approving are not offered to agents: a person reviews and publishes in Rankwell.
        </p>
        <h3 className="mt-6 text-xl font-bold text-slate-900">Tools</h3>
        <ul className="mt-2 space-y-3 text-slate-700">
          {MCP_TOOLS.map((tool) => (
            <li key={tool.name}>
              <code className="font-semibold text-slate-900">{tool.name}</code> ({tool.route}; scope{' '}
              <code>{tool.scope}</code>): {tool.description}
            </li>
          ))}
        </ul>
        <h3 className="mt-6 text-xl font-bold text-slate-900">Resources</h3>
        <p className="mt-2 text-slate-700">
          <code>{POST_RESOURCE_TEMPLATE}</code>: a post’s article as Markdown.
        </p>
      </Section>

      <Section id="reference">
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {data.tags.map((tag) => (
            <li key={tag.slug}>
              <a href={`#tag-${tag.slug}`} className="text-brand-700 underline">
                {tag.name}
              </a>
            </li>
          ))}
        </ul>
        {data.tags.map((tag) => (
          <TagSection key={tag.slug} tag={tag} />
        ))}
        <section aria-labelledby="tag-internal" className="mt-10">
          <h3 id="tag-internal" className="text-xl font-bold text-slate-900">
            Not for API clients
          </h3>
          <p className="mt-2 text-slate-700">
            Also under /api, listed in the document for completeness: webhooks, browser redirects and the site’s own
            beacons.
          </p>
          <ul className="mt-2 space-y-1 text-sm text-slate-700">
            {data.internal.map((op) => (
              <li key={op.id}>
                <span className="font-mono font-semibold">{op.method}</span> <code>{op.path}</code>: {op.summary}
              </li>
            ))}
          </ul>
        </section>
      </Section>
    </div>
  )
}
