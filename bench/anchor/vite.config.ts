import path from 'node:path'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'

// The anchor of `npm run bench -- web`: a minimal Remix 2 app built from the same packages as Rankwell, which
// renders Rankwell's saved HTML of each page. Built into bench/anchor/build/ (not committed).
const here = path.dirname(new URL(import.meta.url).pathname)

export default defineConfig({
  root: here,
  css: { postcss: { plugins: [] } },
  build: { target: 'es2022', sourcemap: false },
  plugins: [
    remix({
      appDirectory: path.join(here, 'app'),
      buildDirectory: path.join(here, 'build'),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
})
