import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import { installGlobals, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'

// The anchor's production server: the stock Remix Express setup (compression, static assets, request handler).
installGlobals({ nativeFetch: true })
const buildDir = path.resolve('bench/anchor/build')
const build = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild
const app = express()
app.disable('x-powered-by')
app.use(compression())
app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
app.all('*', createRequestHandler({ build, mode: 'production' }))
const port = Number(process.env.PORT ?? 3100)
app.listen(port, () => console.log(`anchor listening on http://localhost:${port}`))
