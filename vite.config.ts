import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

/** Files under app/routes that are not routes (also read by the route fuzz test, tests/integration/fuzz.test.ts). */
export const ignoredRouteFiles = ['**/*.server.*', '**/*.test.*', '**/__*', '**/.*']

export default defineConfig({
  server: { port: 3000, strictPort: false },
  build: { target: 'es2022', cssMinify: true, sourcemap: false },
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
})
