# The service's image: `docker build -t flag-service .`, then `docker run -p 4242:4242 -v flag-data:/app/data flag-service`.
# tests/dockerfile-steps.test.ts performs the runtime stage (its copies, npm ci, CMD and HEALTHCHECK) without an engine.

# Build: every dependency, then the service, the client and the admin UI compiled into dist/.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: `prepare` would build before the sources are here.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# Run: production dependencies only, the build's output, and what the service reads at run time (the contract, the
# migrations). npm's cache stays out of the image; no install scripts, so `prepare` does not build again.
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY openapi.yaml ./
COPY db/migrations ./db/migrations
# The embedded database (DATA_DIR, ./data): a folder the service's user owns, kept in a volume. Unused with DATABASE_URL.
RUN mkdir data && chown node:node data
USER node
VOLUME ["/app/data"]
EXPOSE 4242
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || process.env.HTTP_PORT || 4242}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As `npm run serve`: the build as it is, never rebuilt; node itself receives docker stop's SIGTERM.
CMD ["node", "--max-semi-space-size=8", "--liftoff-only", "--expose-gc", "dist/app/main.js"]
