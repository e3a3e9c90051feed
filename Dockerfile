# syntax=docker/dockerfile:1
# Haven: production image. Build stage compiles the assets; the runtime stage has no dev dependencies.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    WORKER_MODE=separate
WORKDIR /app
COPY package.json package-lock.json ./
# tsx (a runtime dependency) runs the TypeScript sources directly.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY src ./src
COPY views ./views
COPY cli ./cli
COPY bin ./bin
COPY migrations ./migrations
COPY seeds ./seeds
COPY tsconfig.json ./
RUN chown -R node:node /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/server.ts"]
