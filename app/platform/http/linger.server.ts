import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * What happens to the rest of a body the answer did not need: a 413 (refused from Content-Length in server.ts, or
 * counted while streaming in body.server.ts), a 403 cross-site post, a 401/404/405 that never looked at the body.
 * Left alone, such a body stalls the connection (Remix's reader stops pulling, the client waits to finish sending,
 * neither side moves: the request hangs); closing the socket at once instead makes the kernel answer the client's
 * next packets with a reset, and a client busy writing then loses our answer before reading it ('socket hang up',
 * EPIPE). So, as RFC 9112 §9.6 asks ("lingering close"): after the answer, what the client still sends is read and
 * thrown away without being kept. A body that ends within LINGER_BYTES leaves the connection usable as usual. Past
 * that, or when the connection was to close after this answer anyway (the client sent `Connection: close`), our side
 * is half-closed (FIN: the client learns it can stop) while discarding goes on, and the socket is closed when the
 * client closes or LINGER_MS later, whichever comes first. Memory stays flat: nothing discarded is buffered.
 */
export const LINGER_MS = 2_000
export const LINGER_BYTES = 1024 * 1024

/** Installed for every request (server.ts); acts only when the answer finishes before the body was all received. */
export function lingerIfBodyUnread(req: IncomingMessage, res: ServerResponse) {
  res.once('prefinish', () => {
    if (req.complete) return
    const socket = req.socket
    let closing = false
    const close = () => {
      if (closing || socket.destroyed) return
      closing = true
      socket.end()
      const timer = setTimeout(() => socket.destroy(), LINGER_MS)
      timer.unref()
      socket.once('close', () => clearTimeout(timer))
    }
    // Node ends a connection whose last answer this is with destroySoon() right after 'finish', which is the reset
    // described above while body bytes are still arriving: on this socket it becomes the lingering close.
    socket.destroySoon = close
    res.once('finish', () => {
      // The body's readers (Remix's stream pump) are done with it: count and drop whatever still arrives.
      let discarded = 0
      req.removeAllListeners('data')
      req.on('data', (chunk: Buffer) => {
        discarded += chunk.byteLength
        if (discarded > LINGER_BYTES) close()
      })
      // A body that stops arriving would hold the connection: it is closed LINGER_MS after the answer, unless it ended.
      const idle = setTimeout(close, LINGER_MS)
      idle.unref()
      req.once('end', () => clearTimeout(idle))
      req.resume()
    })
  })
}
