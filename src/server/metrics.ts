/**
 * Prometheus metrics of one app (prom-client). A registry per app, so two apps in one process
 * (tests, `w.restart()`) never collide. Parts report through the small hooks below; gauges that
 * mirror state (pending ids, broadcast progress) are read when /metrics is scraped. Node's own metrics
 * are the process's, collected once (processRegistry) and shown by every app.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Transformer } from "grammy";

export interface MetricsSources {
  pendingIds: () => number;
  broadcast: () => Promise<{ running: boolean; sent: number; failed: number; remaining: number } | undefined>;
}

let processMetrics: Registry | undefined;

/**
 * Node's own metrics (CPU, memory, event loop lag, GC), collected once per process: each collection starts
 * an event-loop-delay monitor and a GC observer that prom-client never stops, and an app is built again in
 * one process (each test world and restart, the playground).
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export class AppMetrics {
  readonly registry = new Registry();
  readonly updates = new Counter({ name: "bot_updates_handled_total", help: "Telegram updates handled", registers: [this.registry] });
  readonly handlerErrors = new Counter({ name: "bot_handler_errors_total", help: "Updates whose handler failed", registers: [this.registry] });
  readonly providerCalls = new Histogram({
    name: "provider_call_seconds",
    help: "Calls to the provider's API by endpoint and outcome (ok, rejected, timeout, network, ...)",
    labelNames: ["endpoint", "outcome"] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly creates = new Counter({
    name: "provider_creates_total",
    help: "Money actions sent to the provider by kind and outcome (the record's status after the answer)",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });
  readonly botApiCalls = new Counter({
    name: "telegram_api_calls_total",
    help: "Bot API calls by method and result (ok, 429, error)",
    labelNames: ["method", "result"] as const,
    registers: [this.registry],
  });
  readonly noticeDelay = new Histogram({
    name: "watcher_notice_seconds",
    help: "Status notices by kind: seconds from the watcher's check that saw the change to the notice being out (pacer waits included)",
    labelNames: ["kind"] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly providerCallbacks = new Counter({
    name: "provider_callbacks_total",
    help: "Provider callbacks (POST /provider/<token>) by outcome (matched, unmatched, unknown-event, bad-signature, unknown-token, rate-limited, malformed)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly storeWrites = new Histogram({
    name: "store_write_seconds",
    help: "Store file writes by outcome",
    labelNames: ["outcome"] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    processRegistry();
    new Gauge({
      name: "watcher_pending_ids",
      help: "Pending transactions the status watcher is watching",
      registers: [this.registry],
      collect() {
        this.set(sources.pendingIds());
      },
    });
    new Gauge({
      name: "broadcast_messages",
      help: "Progress of the current or last broadcast by state (sent, failed, remaining)",
      labelNames: ["state"] as const,
      registers: [this.registry],
      async collect() {
        const b = await sources.broadcast();
        this.reset();
        if (b) for (const state of ["sent", "failed", "remaining"] as const) this.set({ state }, b[state]);
      },
    });
    new Gauge({
      name: "broadcast_running",
      help: "1 while a broadcast is being delivered",
      registers: [this.registry],
      async collect() {
        this.set((await sources.broadcast())?.running ? 1 : 0);
      },
    });
  }

  /** Counts every Bot API request as it goes out (install before auto-retry to see each 429). */
  readonly apiTransformer: Transformer = async (prev, method, payload, signal) => {
    try {
      const res = await prev(method, payload, signal);
      this.botApiCalls.inc({ method, result: res.ok ? "ok" : res.error_code === 429 ? "429" : "error" });
      return res;
    } catch (err) {
      this.botApiCalls.inc({ method, result: "error" });
      throw err;
    }
  };

  text(): Promise<string> {
    return Registry.merge([processRegistry(), this.registry]).metrics();
  }
}
