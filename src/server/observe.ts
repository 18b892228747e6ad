/**
 * Wires the metrics and the health facts into the parts buildApp makes, through their small hooks
 * (store onWrite, upstream onCall, bot observe, the created event), so app.ts only passes them on.
 */
import type { Context, Middleware, Transformer } from "grammy";
import { join } from "node:path";
import type { Clock } from "../tools/clock.js";
import type { TxEvents } from "../domain/events.js";
import type { Store } from "../store/index.js";
import type { OpenStoreOptions } from "../store/index.js";
import type { UpstreamClientOptions } from "../upstream/client.js";
import { Health } from "./health.js";
import type { AppMetrics } from "./metrics.js";

export interface ObserveSources {
  clock: Clock;
  dataDir: string;
  store: () => Pick<Store, "canPersist" | "stats">;
  updatesLoop: () => boolean;
  updatesLoopExpected?: () => boolean;
  role?: () => "leader" | "standby";
  pendingIds: () => number;
  broadcast: () => Promise<{ running: boolean; sent: number; failed: number; remaining: number } | undefined>;
  /** The Prometheus metrics when /metrics is served (HTTP_PORT); without them nothing is counted. */
  metrics?: AppMetrics;
}

/** What the parts report to: AppMetrics, or nothing when no one can read it. */
export type Metrics = Pick<
  AppMetrics,
  "updates" | "handlerErrors" | "providerCalls" | "creates" | "botApiCalls" | "noticeDelay" | "providerCallbacks" | "storeWrites" | "apiTransformer"
>;

/**
 * Metrics nobody reads (no HTTP_PORT): prom-client, its ~120 KB of code and its default collectors
 * stay unloaded, ~20 ms of start-up (bench/startup.ts).
 */
const none = { inc: () => {}, observe: () => {} } as unknown;
const unserved = {
  updates: none,
  handlerErrors: none,
  providerCalls: none,
  creates: none,
  botApiCalls: none,
  noticeDelay: none,
  providerCallbacks: none,
  storeWrites: none,
  apiTransformer: (prev, method, payload, signal) => prev(method, payload, signal),
} as Metrics;

/** What the bot installs to be observed (grammY types only: server/ never imports bot/). */
export interface BotObserver {
  update: Middleware<Context>;
  handlerFailed: () => void;
  api: Transformer;
}

export class Observers {
  readonly metrics: Metrics;
  readonly health: Health;
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(sources: ObserveSources) {
    this.metrics = sources.metrics ?? unserved;
    this.health = new Health({
      clock: sources.clock,
      store: sources.store,
      storeDir: join(sources.dataDir, "store"),
      updatesLoop: sources.updatesLoop,
      ...(sources.updatesLoopExpected && { updatesLoopExpected: sources.updatesLoopExpected }),
      ...(sources.role && { role: sources.role }),
      pendingIds: sources.pendingIds,
      broadcastRunning: async () => (await sources.broadcast())?.running ?? false,
    });
  }

  readonly onWrite: NonNullable<OpenStoreOptions["onWrite"]> = (file, ok, seconds) => {
    this.metrics.storeWrites.observe({ outcome: ok ? "ok" : "failed" }, seconds);
    this.health.storeWrite(file, ok);
  };

  readonly onNotice = (kind: string, seconds: number): void => {
    this.metrics.noticeDelay.observe({ kind }, seconds);
  };

  readonly onCall: NonNullable<UpstreamClientOptions["onCall"]> = (endpoint, outcome, seconds) => {
    this.metrics.providerCalls.observe({ endpoint, outcome }, seconds);
    if (outcome === "ok" || outcome === "rejected") this.health.providerOk();
  };

  private readonly update: Middleware<Context> = async (_ctx, next) => {
    this.inflight++;
    try {
      await next();
    } catch (err) {
      this.metrics.handlerErrors.inc();
      throw err;
    } finally {
      this.metrics.updates.inc();
      this.health.updateHandled();
      if (--this.inflight === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  };

  get bot(): BotObserver {
    return { update: this.update, handlerFailed: () => this.metrics.handlerErrors.inc(), api: this.metrics.apiTransformer };
  }

  /** Counts every create by kind and the status its answer left. */
  watchCreates(events: TxEvents): void {
    events.on("created", (tx) => {
      this.metrics.creates.inc({ kind: tx.kind, outcome: tx.status });
    });
  }

  /** Resolves when no update is being handled (graceful stop in webhook mode), or after `maxMs`. */
  handlersIdle(maxMs: number): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
