import path from 'node:path'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

/**
 * The web process as plain JavaScript (`npm run build` runs this after the Remix build, like the worker's
 * vite.worker.config.ts): `node build/web/server.js` starts without compiling TypeScript at every start, which took
 * seconds of CPU (24 s on a loaded machine) before /healthz answered again after a restart (issue 39, decision 0390).
 * Packages stay in node_modules (an SSR build keeps them external). `npm run dev` still runs server.ts with tsx.
 */
export default defineConfig({
  build: {
    ssr: 'server.ts',
    outDir: path.join(process.env.REMIX_BUILD_DIR ?? 'build', 'web'),
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
  },
  publicDir: false,
  plugins: [tsconfigPaths()],
})
