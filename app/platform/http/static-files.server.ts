import path from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'

/**
 * The production build's client folder (Vite copies public/ into it), served by one express.static mount (issue
 * 17). A path without a file extension is a page, never a file: it goes straight to Remix with no disk lookup.
 * Fingerprinted files under /assets/ are immutable for a year; the rest (favicon, robots-free files) for an hour.
 */
export function staticFiles(clientDir: string) {
  const assetsDir = path.join(clientDir, 'assets') + path.sep
  const serve = express.static(clientDir, {
    maxAge: '1h',
    index: false,
    redirect: false,
    setHeaders(res, filePath) {
      if (filePath.startsWith(assetsDir)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
    },
  })
  return (req: Request, res: Response, next: NextFunction) => {
    if (path.posix.extname(req.path) === '') return next()
    return serve(req, res, next)
  }
}
