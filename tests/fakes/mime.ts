/**
 * Minimal MIME parser, good enough for nodemailer output: header unfolding,
 * RFC 2047 encoded words, multipart/* (recursive), quoted-printable and base64
 * transfer encodings, charset decoding via TextDecoder.
 */

export interface ParsedMail {
  headers: Record<string, string>
  subject: string
  text: string
  html: string
  attachments: Array<{ filename: string | null; contentType: string; size: number }>
}

interface Part {
  headers: Record<string, string>
  body: Buffer
}

function decodeCharset(buf: Buffer, charset: string | undefined): string {
  const cs = (charset ?? 'utf-8').trim().toLowerCase()
  try {
    return new TextDecoder(cs === 'us-ascii' || cs === 'ascii' ? 'utf-8' : cs).decode(buf)
  } catch {
    return buf.toString('utf8')
  }
}

function decodeQuotedPrintableToBuffer(input: string, headerMode = false): Buffer {
  const src = headerMode ? input.replace(/_/g, ' ') : input.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      const code = src.charCodeAt(i)
      if (code < 128) bytes.push(code)
      else for (const b of Buffer.from(ch, 'utf8')) bytes.push(b)
    }
  }
  return Buffer.from(bytes)
}

/** Decodes RFC 2047 encoded words (`=?utf-8?B?...?=` / `=?utf-8?Q?...?=`). */
export function decodeEncodedWords(value: string): string {
  // whitespace between adjacent encoded words is ignored
  const joined = value.replace(/(=\?[^?]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[bBqQ]\?[^?]*\?=)/g, '$1')
  // merge adjacent words with the same charset/encoding so multi-byte chars split across words decode correctly
  const re = /=\?([^?*]+)(?:\*[^?]+)?\?([bBqQ])\?([^?]*)\?=/g
  const pieces: Array<{ charset: string; enc: string; data: Buffer } | string> = []
  let last = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(joined)) !== null) {
    if (m.index > last) pieces.push(joined.slice(last, m.index))
    const enc = m[2].toUpperCase()
    const data = enc === 'B' ? Buffer.from(m[3], 'base64') : decodeQuotedPrintableToBuffer(m[3], true)
    const prev = pieces[pieces.length - 1]
    if (prev && typeof prev !== 'string' && prev.charset.toLowerCase() === m[1].toLowerCase()) {
      prev.data = Buffer.concat([prev.data, data])
    } else {
      pieces.push({ charset: m[1], enc, data })
    }
    last = m.index + m[0].length
  }
  if (last < joined.length) pieces.push(joined.slice(last))
  return pieces.map((p) => (typeof p === 'string' ? p : decodeCharset(p.data, p.charset))).join('')
}

function parseHeaders(block: string): Record<string, string> {
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ')
  const headers: Record<string, string> = {}
  for (const line of unfolded.split(/\r?\n/)) {
    const idx = line.indexOf(':')
    if (idx <= 0) continue
    const key = line.slice(0, idx).trim().toLowerCase()
    const value = line.slice(idx + 1).trim()
    headers[key] = headers[key] !== undefined ? `${headers[key]}, ${value}` : value
  }
  return headers
}

/** Splits a header value like `text/plain; charset="utf-8"` into value + params. */
export function parseHeaderParams(value: string): { value: string; params: Record<string, string> } {
  const parts: string[] = []
  let cur = ''
  let quoted = false
  for (const ch of value) {
    if (ch === '"') quoted = !quoted
    if (ch === ';' && !quoted) {
      parts.push(cur)
      cur = ''
    } else cur += ch
  }
  parts.push(cur)
  const params: Record<string, string> = {}
  for (const p of parts.slice(1)) {
    const idx = p.indexOf('=')
    if (idx < 0) continue
    let k = p.slice(0, idx).trim().toLowerCase()
    let v = p.slice(idx + 1).trim()
    if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1)
    // RFC 2231 (filename*=utf-8''...)
    if (k.endsWith('*')) {
      k = k.slice(0, -1)
      const m = /^([^']*)'[^']*'(.*)$/.exec(v)
      if (m) {
        try {
          v = decodeURIComponent(m[2])
        } catch {
          v = m[2]
        }
      }
    }
    params[k] = v
  }
  return { value: parts[0].trim().toLowerCase(), params }
}

function splitHeaderBody(raw: Buffer): Part {
  const s = raw.toString('latin1')
  const m = /\r?\n\r?\n/.exec(s)
  if (!m) return { headers: parseHeaders(s), body: Buffer.alloc(0) }
  const headerBlock = raw.subarray(0, m.index).toString('utf8')
  return { headers: parseHeaders(headerBlock), body: raw.subarray(m.index + m[0].length) }
}

function decodeTransfer(body: Buffer, encoding: string | undefined): Buffer {
  const enc = (encoding ?? '7bit').toLowerCase().trim()
  if (enc === 'base64') return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
  if (enc === 'quoted-printable') return decodeQuotedPrintableToBuffer(body.toString('latin1'))
  return body
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const s = body.toString('latin1')
  const delimiter = `--${boundary}`
  const parts: Buffer[] = []
  let idx = s.indexOf(delimiter)
  while (idx >= 0) {
    const afterDelim = idx + delimiter.length
    if (s.startsWith('--', afterDelim)) break
    const lineEnd = s.indexOf('\n', afterDelim)
    if (lineEnd < 0) break
    const next = s.indexOf(`\n${delimiter}`, lineEnd)
    const end = next < 0 ? s.length : next
    let chunk = s.slice(lineEnd + 1, end)
    if (chunk.endsWith('\r')) chunk = chunk.slice(0, -1)
    parts.push(Buffer.from(chunk, 'latin1'))
    idx = next < 0 ? -1 : next + 1
  }
  return parts
}

function walk(part: Part, out: ParsedMail): void {
  const ct = parseHeaderParams(part.headers['content-type'] ?? 'text/plain; charset=us-ascii')
  const disposition = parseHeaderParams(part.headers['content-disposition'] ?? 'inline')
  if (ct.value.startsWith('multipart/') && ct.params.boundary) {
    for (const sub of splitMultipart(part.body, ct.params.boundary)) walk(splitHeaderBody(sub), out)
    return
  }
  const decoded = decodeTransfer(part.body, part.headers['content-transfer-encoding'])
  const isAttachment =
    disposition.value === 'attachment' || (disposition.params.filename !== undefined && !ct.value.startsWith('text/'))
  if (!isAttachment && ct.value === 'text/plain' && !out.text) {
    out.text = decodeCharset(decoded, ct.params.charset)
    return
  }
  if (!isAttachment && ct.value === 'text/html' && !out.html) {
    out.html = decodeCharset(decoded, ct.params.charset)
    return
  }
  if (ct.value === 'message/rfc822') {
    out.attachments.push({ filename: disposition.params.filename ?? null, contentType: ct.value, size: decoded.length })
    return
  }
  out.attachments.push({
    filename: disposition.params.filename ?? ct.params.name ?? null,
    contentType: ct.value,
    size: decoded.length,
  })
}

export function parseMail(raw: Buffer | string): ParsedMail {
  const buf = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw
  const root = splitHeaderBody(buf)
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(root.headers)) headers[k] = decodeEncodedWords(v)
  const out: ParsedMail = { headers, subject: headers.subject ?? '', text: '', html: '', attachments: [] }
  walk(root, out)
  return out
}

/** Extracts bare addresses from an address-list header value. */
export function addressesFrom(value: string | undefined): string[] {
  if (!value) return []
  const out: string[] = []
  const re = /<([^<>\s]+@[^<>\s]+)>|([^\s,<>"]+@[^\s,<>"]+)/g
  let m: RegExpExecArray | null
  while ((m = re.exec(value)) !== null) out.push((m[1] ?? m[2]).toLowerCase())
  return out
}
