import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * What happens to the rest of a body the answer did not need: a 413 (refused from Content-Length in server.ts, or
 * counted while streaming in body.server.ts), a 403 cross-site post, a 401/404/405 that never looked at the body.
 * Left alone, such a body stalls the connection (Remix's reader stops pulling, the client waits to finish sending,
 * neither side moves: the request hangs); closing the socket at once instead makes the kernel answer the client's
 * next packets with a reset, and a client busy writing then loses our answer before reading it ('socket hang up',
 * EPIPE). So, as RFC 9112 §9.6 asks ("lingering close"): after the answer, what the client still sends is read and
 * thrown away without being kept. A body that ends within LINGER_BYTES leaves the connection usable as usual; past
 * that, our side is half-closed (FIN: the client learns it can stop) while reading and discarding goes on, and the
 * socket is closed when the client closes or LINGER_MS after the answer, whichever comes first. Memory stays flat:
 * nothing discarded is buffered.
 */
export const LINGER_MS = 2_000
export const LINGER_BYTES = 1024 * 1024

/** Installed for every request (server.ts); acts only when the answer finished before the body was all received. */
export function lingerIfBodyUnread(req: IncomingMessage, res: ServerResponse) {
  res.once('finish', () => {
    const socket = req.socket
    if (req.complete || socket.destroyed) return
    let discarded = 0
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    req.once('end', () => clearTimeout(timer))
    socket.once('close', () => clearTimeout(timer))
    // The body's readers (Remix's stream pump) are done with it: count and drop whatever still arrives.
    req.removeAllListeners('data')
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.byteLength
      if (discarded > LINGER_BYTES && !socket.writableEnded) socket.end()
    })
    req.resume()
  })
}
