/**
 * The one HTTP server (only when HTTP_PORT is set): /healthz, /metrics, the provider's callbacks
 * (providerCallback.ts, served on node's own request ahead of Hono: they come in bursts), the H2H API for
 * downlines' own systems (h2h/) and, in webhook mode, the Telegram webhook. Made to face the open internet: a body size limit, request and header timeouts,
 * and answers that never carry a stack trace or an error message.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { sizeLimit } from "./bodySize.js";
import type { Logger } from "../logging/logger.js";
import type { Health } from "./health.js";
import type { AppMetrics } from "./metrics.js";
import { callbackListener, ProviderCallbacks, type ProviderCallbackDeps } from "./providerCallback.js";
import { h2hRoutes, type H2hRouteDeps } from "./h2h/routes.js";

/** Telegram updates are small; anything bigger is not from Telegram. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpServerOptions {
  host: string;
  port: number;
  logger: Logger;
  health: Health;
  metrics: AppMetrics;
  /** Telegram webhook: POST at `path`, checked and handled by `handler` (grammY's webhookCallback). */
  webhook?: { path: string; handler: (c: Context) => Promise<Response> };
  /** POST /provider/:token, the provider's callbacks (when PUBLIC_URL is set, or in sandbox mode). */
  providerCallbacks?: ProviderCallbackDeps;
  /** POST /h2h/...: the provider's API served to downlines' own systems (docs/h2h.md). */
  h2h?: H2hRouteDeps;
}

export interface HttpServer {
  /** http://host:port actually bound (port 0 picks a free one). */
  url: string;
  port: number;
  /** Stops accepting; open keep-alive connections are closed once idle. */
  close(): Promise<void>;
}

/** Every route but the provider's callbacks (callbackListener). */
export function createHttpApp(opts: Omit<HttpServerOptions, "host" | "port" | "providerCallbacks">): Hono {
  const app = new Hono();
  app.use(sizeLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ error: "body too large" }, 413) }));
  app.get("/healthz", async (c) => {
    const report = await opts.health.report();
    return c.json(report, report.ok ? 200 : 503, { "cache-control": "no-store" });
  });
  app.get("/metrics", async (c) =>
    c.body(await opts.metrics.text(), 200, { "content-type": opts.metrics.registry.contentType }),
  );
  if (opts.webhook) app.post(opts.webhook.path, opts.webhook.handler);
  if (opts.h2h) app.route("/h2h", h2hRoutes(opts.h2h));
  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((err, c) => {
    opts.logger.error({ err, path: c.req.path }, "http request failed");
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}

export async function startHttpServer(opts: HttpServerOptions): Promise<HttpServer> {
  const framework = getRequestListener(createHttpApp(opts).fetch, { hostname: opts.host });
  const callbacks = opts.providerCallbacks ? callbackListener(new ProviderCallbacks(opts.providerCallbacks), opts.logger) : undefined;
  const server = createServer((req, res) => {
    if (!callbacks?.(req, res)) void framework(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.requestTimeout = 15_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // A client holding a connection open cannot hold up the stop beyond this.
        const force = setTimeout(() => server.closeAllConnections(), 5_000);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
