# syntax=docker/dockerfile:1
# Haven's production image: one image for the web app, the worker and the `haven` CLI (docs/operations.md).
# Node 24 LTS on Debian bookworm-slim, pinned. The runtime stage holds production dependencies only: no
# embedded-postgres (a Postgres is always given by DATABASE_URL here) and none of the packages only the
# browser needs (React, htmx, charts: they are bundled into dist/public by the build stage).
ARG NODE_IMAGE=node:24.11.1-bookworm-slim

# ---- build: every dependency, then the browser assets (Vite) ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- deps: production dependencies only (tests/api/runtime-image.test.ts builds this same tree) ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    WORKER_MODE=separate
WORKDIR /app
# `haven` on the PATH: docker compose exec web haven users create …
RUN ln -s /app/bin/haven.js /usr/local/bin/haven \
 && install -d -o node -g node /app/.data
COPY --chown=node:node --from=deps /app/node_modules ./node_modules
COPY --chown=node:node package.json package-lock.json tsconfig.json ./
COPY --chown=node:node bin ./bin
COPY --chown=node:node cli ./cli
COPY --chown=node:node src ./src
COPY --chown=node:node views ./views
COPY --chown=node:node migrations ./migrations
COPY --chown=node:node seeds ./seeds
COPY --chown=node:node --from=build /app/dist ./dist
USER node
EXPOSE 3000
# /readyz: the database answers, the assets exist, the migrations are current; 503 while draining.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.WORKER_PORT||process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# tsx (a production dependency) runs the TypeScript sources; compose adds tini (init: true) as PID 1.
CMD ["node", "--import", "tsx", "src/server.ts"]
