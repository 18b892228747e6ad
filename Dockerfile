# syntax=docker/dockerfile:1
# Both stages on one Node image: the build writes V8's code cache for the Node that runs it (a cache from
# another Node is not used: the bot starts, more slowly, and logs so). Pin a digest here to keep them equal.
ARG NODE_IMAGE=node:22-bookworm-slim

# Build: type-check and compile with the dev dependencies. The code cache step evaluates the bot's modules,
# which read locales/. The same WORKDIR as the run stage: the cache names the bundle's path.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY locales ./locales
COPY src ./src
RUN npm run build

# Run: production dependencies only, compiled JavaScript, a non-root user.
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
CMD ["node", "dist/main.js"]
