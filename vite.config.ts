import path from 'node:path'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig, type Rollup } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

/** Files under app/routes that are not routes (also read by the route fuzz test, tests/integration/fuzz.test.ts). */
export const ignoredRouteFiles = ['**/*.server.*', '**/*.test.*', '**/__*', '**/.*']

/**
 * The browser build puts the app's own modules that the root route imports (directly or through other app modules)
 * into one chunk, `layout`. The root is loaded on every page, so this adds no byte to any page; without it Rollup
 * splits each of them into a chunk of its own (they are shared with other routes): a public page asked for 16 scripts,
 * which a phone on a slow network (HTTP/1.1, six connections) fetches in three rounds before the first paint as
 * Lighthouse models it (issue 17).
 */
function layoutChunk() {
  const root = path.resolve('app/root.tsx')
  let layout: Set<string> | undefined
  const collect = (getModuleInfo: Rollup.GetModuleInfo) => {
    const seen = new Set<string>()
    const visit = (id: string) => {
      for (const next of getModuleInfo(id)?.importedIds ?? []) {
        if (seen.has(next) || next.includes('/node_modules/') || next.startsWith('\0') || /\.css($|\?)/.test(next))
          continue
        seen.add(next)
        visit(next)
      }
    }
    visit(root)
    return seen
  }
  return (id: string, { getModuleInfo }: { getModuleInfo: Rollup.GetModuleInfo }) => {
    layout ??= collect(getModuleInfo)
    return layout.has(id) ? 'layout' : undefined
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 3000, strictPort: false },
  build: {
    target: 'es2022',
    cssMinify: true,
    sourcemap: false,
    ...(isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: layoutChunk() } } }),
  },
  plugins: [
    remix({
      // Tests build into a folder of their own, so concurrent runs never overwrite each other's build.
      buildDirectory: process.env.REMIX_BUILD_DIR ?? 'build',
      ignoredRouteFiles,
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
  ],
}))
