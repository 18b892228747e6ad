/**
 * Transaction events: the confirm engine, the deposit release and the status watcher say what
 * happened, and whoever cares (the status watcher, balance alerts, the balance cache) listens. Built
 * once in app.ts before the bot, so no part is patched in after another exists. A listener's failure is logged, never thrown at the
 * emitter: a money handler must not break because an observer did.
 */
import type { Logger } from "../logging/logger.js";
import type { TxRecord } from "../store/index.js";

export interface TxEventMap {
  /** A create call answered (any outcome, "unknown" included). */
  created: Readonly<TxRecord>;
  /** The status watcher saved a change the provider reported after the create (an outcome, a payment). */
  changed: Readonly<TxRecord>;
}

type Listener<T> = (payload: T) => void | Promise<void>;

export class TxEvents {
  private readonly listeners: { [K in keyof TxEventMap]: Listener<TxEventMap[K]>[] } = { created: [], changed: [] };

  constructor(private readonly logger?: Logger) {}

  on<K extends keyof TxEventMap>(event: K, listener: Listener<TxEventMap[K]>): void {
    this.listeners[event].push(listener);
  }

  emit<K extends keyof TxEventMap>(event: K, payload: TxEventMap[K]): void {
    for (const listener of this.listeners[event]) {
      const failed = (err: unknown) => this.logger?.error({ err, event }, "a transaction event listener failed");
      try {
        // Not awaited: the emitter goes on at once; an async listener's failure is logged the same way.
        // A listener typed as returning void may still return a value (a counter's inc() does): only a promise is watched.
        const result: unknown = listener(payload);
        if (result instanceof Promise) result.catch(failed);
      } catch (err) {
        failed(err);
      }
    }
  }
}
