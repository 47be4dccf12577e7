# syntax=docker/dockerfile:1
# Multi-stage build: dependencies → build → slim runtime (shared by the web and worker processes).
# Production runs Node 22 LTS (Node 20's support ended in April 2026). The code also runs on Node 20 (package.json
# engines: >=20), which CI and the development machines still have: `npm test` runs there.
FROM node:22-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
# patch-package applies patches/ (route matching and route objects cached: @remix-run/router, @remix-run/react,
# react-router-dom; decision 0172) after the install.
COPY patches ./patches
RUN npm ci --include=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM base AS runtime
ENV PORT=3000
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json /app/server.ts ./
COPY --from=build /app/app ./app
COPY --from=build /app/worker ./worker
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/public ./public
USER node
EXPOSE 3000
# The web process as built JavaScript (`npm run build` writes build/web/server.js; issue 39), like `npm start`;
# fly.toml runs the worker from the same image, also built: `node --enable-source-maps build/worker/index.js`.
CMD ["node", "--enable-source-maps", "build/web/server.js"]
