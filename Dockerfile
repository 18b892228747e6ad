# syntax=docker/dockerfile:1
# Build: type-check and compile with the dev dependencies.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# Run: production dependencies only, compiled JavaScript, a non-root user.
FROM node:22-bookworm-slim
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
