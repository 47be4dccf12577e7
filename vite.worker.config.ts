import path from 'node:path'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

/**
 * The worker as plain JavaScript (`npm run build` runs this after the Remix build): `node build/worker/index.js`
 * starts without compiling TypeScript, which on a small machine took seconds of CPU from the web process next to
 * it at every restart (decision 0204). Packages stay in node_modules (an SSR build keeps them external).
 */
export default defineConfig({
  build: {
    ssr: 'worker/index.ts',
    outDir: path.join(process.env.REMIX_BUILD_DIR ?? 'build', 'worker'),
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
  },
  publicDir: false,
  plugins: [tsconfigPaths()],
})
