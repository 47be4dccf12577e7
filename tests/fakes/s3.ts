/**
 * A loopback S3 (issue 33): the REST wire protocol of the three calls Rankwell makes, path-style
 * (`/<bucket>/<key>`), as the official AWS SDK sends them:
 * - PUT /<bucket>/<key> (PutObject): the body (plain, or `aws-chunked` as the SDK streams with checksums) is
 *   stored with its Content-Type and Cache-Control; 200 with an ETag (the MD5 of the bytes, quoted).
 * - GET /<bucket>/<key> (GetObject): 200 with the bytes, Content-Type, Content-Length, ETag, Last-Modified; an
 *   unknown key → 404 `NoSuchKey`.
 * - DELETE /<bucket>/<key> (DeleteObject): 204, whether or not the key existed (as S3 does).
 * Every request must carry a SigV4 `Authorization: AWS4-HMAC-SHA256 Credential=<access key>/<date>/<region>/s3/
 * aws4_request, SignedHeaders=…, Signature=…` header with the known access key (the signature's form is checked,
 * not recomputed), else 403 `AccessDenied` / `InvalidAccessKeyId`; an unknown bucket → 404 `NoSuchBucket`. Errors are
 * S3's XML documents. GET /__control/objects lists what is stored; POST /__control/reset empties the bucket.
 */
import crypto from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const FAKE_S3 = {
  bucket: 'rankwell-images',
  accessKeyId: 'AKIAFAKELOCAL0000000',
  secretAccessKey: 'fake-secret-access-key-local-0000000000',
  region: 'us-east-1',
} as const

type S3Object = { bytes: Buffer; contentType: string; cacheControl: string | null; etag: string; modified: Date }

export type S3FakeHandle = {
  url: string
  close(): Promise<void>
  objects(): Map<string, S3Object>
  /** Requests seen: method, path and whether they carried a SigV4 Authorization header. */
  requests(): Array<{ method: string; path: string; signed: boolean }>
}

function xmlError(res: ServerResponse, status: number, code: string, message: string, resource: string) {
  const requestId = crypto.randomBytes(8).toString('hex').toUpperCase()
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource}</Resource>` +
    `<RequestId>${requestId}</RequestId><HostId>${crypto.randomBytes(24).toString('base64')}</HostId></Error>`
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': String(Buffer.byteLength(body)),
    'x-amz-request-id': requestId,
  })
  res.end(body)
}

/** The payload of an `aws-chunked` body: `<hex size>[;chunk-signature=…]\r\n<data>\r\n` … `0\r\n[trailers]\r\n`. */
export function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = raw.indexOf('\r\n', at)
    if (eol < 0) break
    const size = parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(raw.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
  return Buffer.concat(parts)
}

const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[a-z0-9-]+\/s3\/aws4_request, ?SignedHeaders=[a-z0-9;-]+, ?Signature=[0-9a-f]{64}$/

export async function startS3(opts: { host?: string } = {}): Promise<S3FakeHandle> {
  const objects = new Map<string, S3Object>()
  const seen: Array<{ method: string; path: string; signed: boolean }> = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://s3.local')
      const method = req.method ?? 'GET'
      if (url.pathname.startsWith('/__control/')) {
        if (url.pathname === '/__control/objects') {
          const list = [...objects.entries()].map(([key, o]) => ({
            key,
            size: o.bytes.byteLength,
            type: o.contentType,
          }))
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ objects: list }))
        } else if (url.pathname === '/__control/reset') {
          objects.clear()
          seen.length = 0
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end('{}')
        } else {
          res.writeHead(404)
          res.end()
        }
        return
      }
      const auth = String(req.headers.authorization ?? '')
      const sig = SIGV4.exec(auth)
      seen.push({ method, path: url.pathname, signed: Boolean(sig) })
      const [, bucket = '', ...rest] = url.pathname.split('/')
      const key = decodeURIComponent(rest.join('/'))
      if (!sig) return xmlError(res, 403, 'AccessDenied', 'Access Denied', url.pathname)
      if (sig[1] !== FAKE_S3.accessKeyId)
        return xmlError(
          res,
          403,
          'InvalidAccessKeyId',
          'The AWS Access Key Id you provided does not exist in our records.',
          url.pathname,
        )
      if (bucket !== FAKE_S3.bucket)
        return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', `/${bucket}`)
      if (!key) return xmlError(res, 400, 'InvalidRequest', 'Bucket operations are not supported here.', url.pathname)
      const raw = Buffer.concat(chunks)
      if (method === 'PUT') {
        const chunked =
          /aws-chunked/i.test(String(req.headers['content-encoding'] ?? '')) ||
          String(req.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-')
        const bytes = chunked ? decodeAwsChunked(raw) : raw
        const etag = `"${crypto.createHash('md5').update(bytes).digest('hex')}"`
        objects.set(key, {
          bytes,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          cacheControl: req.headers['cache-control'] ? String(req.headers['cache-control']) : null,
          etag,
          modified: new Date(),
        })
        res.writeHead(200, { etag, 'x-amz-request-id': crypto.randomBytes(8).toString('hex') })
        res.end()
        return
      }
      if (method === 'GET' || method === 'HEAD') {
        const o = objects.get(key)
        if (!o) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.', url.pathname)
        res.writeHead(200, {
          'content-type': o.contentType,
          'content-length': String(o.bytes.byteLength),
          etag: o.etag,
          'last-modified': o.modified.toUTCString(),
          'accept-ranges': 'bytes',
          ...(o.cacheControl ? { 'cache-control': o.cacheControl } : {}),
        })
        res.end(method === 'HEAD' ? undefined : o.bytes)
        return
      }
      if (method === 'DELETE') {
        objects.delete(key)
        res.writeHead(204)
        res.end()
        return
      }
      xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', url.pathname)
    })
  })
  const host = opts.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    objects: () => objects,
    requests: () => [...seen],
  }
}
