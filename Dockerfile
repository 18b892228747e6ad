# syntax=docker/dockerfile:1
# One Node image for both stages (pin a digest here for a reproducible image).
ARG NODE_IMAGE=node:22-bookworm-slim

# Build: bundle with esbuild (a dev dependency), as `npm start` does: dist/main.js, and dist/chunks/ for the
# parts it imports on demand (the HTTP server, PostgreSQL store, sandbox...), each file with its source map.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# Run: production dependencies only, all of dist/ (main.js, its chunks and their maps), a non-root user;
# what `npm start` runs after its build (stack traces in the log name the src/ files through the maps).
FROM ${NODE_IMAGE}
ENV NODE_ENV=production DATA_DIR=/data HTTP_PORT=8080 HTTP_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY locales ./locales
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.HTTP_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM from `docker stop` reaches node directly: it finishes handlers and flushes within 10 s.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/main.js"]
