import crypto from 'node:crypto'
import type { EntryContext } from '@remix-run/node'
import type { Response as ExpressResponse } from 'express'
import { wholeResponse } from './remix-handler.server'
import { PUBLIC_SHARED_MAX_AGE_S, type CachedPage } from './page-cache.server'

/**
 * HTTP caching of documents (issue 17). A public marketing page, rendered for an anonymous visitor with nothing
 * personal in it (no session, no toast, no Set-Cookie, status 200), may be kept by a CDN: it carries
 * PUBLIC_CACHE_CONTROL, a strong ETag of its bytes, and a CSP that allows its inline scripts by their hashes (no
 * per-request nonce, so a cached copy stays valid and safe). Every other document is `private, no-store`.
 */
export const PUBLIC_CACHE_CONTROL = `public, max-age=0, s-maxage=${PUBLIC_SHARED_MAX_AGE_S}, stale-while-revalidate=86400`
export const PRIVATE_CACHE_CONTROL = 'private, no-store'

type RootLoaderData = { user?: unknown; toast?: unknown } | undefined

/** Whether the document about to be rendered may be cached publicly. Decided before rendering (it picks the CSP). */
export function isPublicDocument(
  request: Request,
  status: number,
  headers: Headers,
  context: Pick<EntryContext, 'staticHandlerContext'>,
): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  if (status !== 200 || headers.has('Set-Cookie')) return false
  const { matches, loaderData, actionData, errors } = context.staticHandlerContext
  if (actionData || errors) return false
  const leaf = matches[matches.length - 1]
  const handle =
    leaf?.route && 'handle' in leaf.route ? (leaf.route.handle as { cache?: string } | undefined) : undefined
  if (handle?.cache !== 'public') return false
  const root = loaderData.root as RootLoaderData
  return !root?.user && !root?.toast
}

/** SHA-256 sources (`'sha256-…'`) of every inline <script> in an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1]!) || match[2]!.length === 0) continue
    hashes.add(`'sha256-${crypto.createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`)
  }
  return [...hashes]
}

/** The CSP with its per-request nonce replaced by the hashes of the page's inline scripts. */
export function hashedPolicy(policy: string, hashes: string[]): string {
  return policy.replace(/'nonce-[^']*'/, hashes.join(' ')).replace(/\s{2,}/g, ' ')
}

/** A strong validator: the document's bytes decide it, so it changes whenever the page does. */
export function strongEtag(body: Uint8Array | string): string {
  return `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
}

/** RFC 9110 If-None-Match: `*` or a list of entity tags (weak comparison). */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare)
}

/**
 * The document as one buffer with its caching headers, or a 304 when the client already has it.
 * `policy` is the CSP the server set for this request (with its nonce), replaced for public documents.
 * `remember` receives a public document as sent (page-cache.server.ts keeps it for later anonymous visits).
 */
export function finishDocument(
  request: Request,
  html: string,
  opts: {
    status: number
    headers: Headers
    isPublic: boolean
    policy: string | undefined
    remember?: (page: Omit<CachedPage, 'expiresAt'>) => void
    /** Bytes to put where `marker` is in the document (its first occurrence): the inline stylesheet. */
    splice?: { marker: string; bytes: Uint8Array }
  },
): Response {
  const { headers, status } = opts
  headers.set('Content-Type', 'text/html; charset=utf-8')
  // The body goes to Response as bytes: given a string, undici first makes it a well-formed (USV) string in
  // JavaScript, which cost a tenth of the CPU of a full /keywords page (issue 21); Buffer.from encodes natively.
  const at = opts.splice ? html.indexOf(opts.splice.marker) : -1
  const body =
    opts.splice && at >= 0
      ? Buffer.concat([
          Buffer.from(html.slice(0, at), 'utf8'),
          opts.splice.bytes,
          Buffer.from(html.slice(at + opts.splice.marker.length), 'utf8'),
        ])
      : Buffer.from(html, 'utf8')
  if (!opts.isPublic) {
    headers.set('Cache-Control', PRIVATE_CACHE_CONTROL)
    return wholeResponse(body, { status, headers })
  }
  const etag = strongEtag(body)
  headers.set('Cache-Control', PUBLIC_CACHE_CONTROL)
  headers.set('ETag', etag)
  if (opts.policy) headers.set('Content-Security-Policy', hashedPolicy(opts.policy, inlineScriptHashes(html)))
  opts.remember?.({ status, headers: [...headers.entries()], body, etag })
  if (ifNoneMatchHits(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers })
  return wholeResponse(body, { status, headers })
}

/** Data requests (client navigations) and resource routes without their own policy are never stored. */
export function defaultNoStore(headers: Headers) {
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', PRIVATE_CACHE_CONTROL)
}

/**
 * Headers Remix sends replace the ones our middleware set earlier (rather than being appended next to them): a
 * public document's hashed CSP replaces the nonce policy, and its Cache-Control is the only one.
 */
const REPLACED = new Set(['content-security-policy', 'cache-control'])
export function letRemixReplaceHeaders(res: ExpressResponse) {
  const append = res.append.bind(res)
  res.append = (field: string, value?: string[] | string) => {
    if (REPLACED.has(field.toLowerCase()) && value !== undefined) return res.setHeader(field, value)
    return append(field, value)
  }
}
