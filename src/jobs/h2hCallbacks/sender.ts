/**
 * Sends the H2H callbacks the outbox holds (docs/h2h.md "Callbacks"), on the leader only (started and
 * stopped by leaderWork.ts). Each due document is POSTed to the downline's callback URL as it is now,
 * with the provider's signature (md5 of the username its profile answers) and X-H2H-Signature (HMAC-
 * SHA256 of the body under the key's sha256 hex, which the downline computes from its key). A 2xx
 * ends it; anything else is tried again later (BACKOFF_MS), until 24 h after it was queued. A few at a
 * time, each cut after a timeout, so a slow or dead URL holds up nothing else.
 */
import { createHmac } from "node:crypto";
import type { Logger } from "../../logging/logger.js";
import type { Doc, Store } from "../../store/index.js";
import type { Clock, TimerHandle } from "../../tools/clock.js";
import { H2hAccessKind } from "../../domain/h2hAccess.js";
import { callbackSignature } from "../../domain/providerCallbacks.js";
import { H2hCallbackKind, type OutboxValue } from "./outbox.js";

/** The waits after the 1st, 2nd... failed try; the last repeats. */
export const BACKOFF_MS = [10_000, 60_000, 300_000, 900_000, 3_600_000, 3 * 3_600_000, 6 * 3_600_000] as const;
/** A callback not answered 2xx this long after it was queued is given up (the downline can still ask transaksi/status). */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

export interface H2hCallbackSenderOptions {
  /** Callbacks in flight at once. */
  concurrency: number;
  /** One POST's limit (real time: it is a network wait). */
  timeoutMs: number;
  /** How often the outbox is looked at without a poke. */
  pollMs: number;
}

export interface H2hCallbackSenderDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  options?: Partial<H2hCallbackSenderOptions>;
}

/** The username the /h2h get_profile answers for a downline (server/h2h/answers.ts profileAnswer). */
const usernameOf = (chat: number) => `dl${chat}`;

export class H2hCallbackSender {
  private readonly o: H2hCallbackSenderOptions;
  private readonly fetch: typeof fetch;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: TimerHandle | undefined;
  private running = false;
  private looking: Promise<void> | undefined;
  private again = false;
  /** Cuts the sends in flight at stop (each is tried again by the next leader). */
  private halt = new AbortController();

  constructor(private readonly deps: H2hCallbackSenderDeps) {
    this.o = { concurrency: 8, timeoutMs: 10_000, pollMs: 5_000, ...deps.options };
    this.fetch = deps.fetch ?? fetch;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.halt = new AbortController();
    this.poke();
  }

  /** Something was queued or a slot came free: look now, or once the look under way ends (a no-op when not leading). */
  poke(): void {
    if (!this.running) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    void this.look();
  }

  /** Resolves when no look and no send is under way (tests step the clock with it). */
  async whenIdle(): Promise<void> {
    while (this.looking || this.inFlight.size > 0) {
      await this.looking;
      await Promise.all(this.inFlight.values());
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
    this.halt.abort();
    await this.looking;
    await Promise.all(this.inFlight.values());
  }

  /** Sends what is due now (up to the free slots), then looks again after pollMs. */
  private look(): Promise<void> {
    if (this.looking) return this.looking;
    const run = (async () => {
      const now = this.deps.clock.now();
      let wakeAt = now + this.o.pollMs;
      try {
        const due = await this.deps.store.listDocs(H2hCallbackKind, { states: ["due"], limit: 1000 });
        for (const doc of due) {
          if (doc.value.nextAt > now) wakeAt = Math.min(wakeAt, doc.value.nextAt);
          if (!this.running || this.inFlight.size >= this.o.concurrency) continue;
          if (doc.value.nextAt > now || this.inFlight.has(doc.id)) continue;
          const one = this.sendOne(doc)
            .catch((err: unknown) => this.deps.logger.warn({ err, id: doc.id }, "h2h callback: could not record a try"))
            .finally(() => {
              this.inFlight.delete(doc.id);
              // A slot came free: what waits behind it goes now.
              this.poke();
            });
          this.inFlight.set(doc.id, one);
        }
      } catch (err) {
        this.deps.logger.warn({ err }, "h2h callback: could not read the outbox");
      }
      if (this.running) {
        this.timer?.cancel();
        // From when this look began: the next retry falls due on time however long the look took.
        this.timer = this.deps.clock.setTimeout(() => void this.look(), Math.max(0, wakeAt - this.deps.clock.now()));
      }
    })();
    this.looking = run;
    void run.finally(() => {
      this.looking = undefined;
      if (this.again) {
        this.again = false;
        this.poke();
      }
    });
    return run;
  }

  private async sendOne(listed: Doc<OutboxValue>): Promise<void> {
    const { store, clock, logger } = this.deps;
    // The list may have been read before an earlier try of this one was recorded: send only what is still due as read.
    const doc = await store.getDoc(H2hCallbackKind, listed.id);
    if (doc?.state !== "due" || doc.version !== listed.version) return;
    const v = doc.value;
    const access = await store.getDoc(H2hAccessKind, String(v.chat));
    const url = access?.owner === doc.owner ? access.value.callbackUrl : undefined;
    const digest = access?.value.keyDigest;
    if (url === undefined || digest === undefined) {
      // The downline took its URL or key away (or left): nobody to tell; transaksi/status still answers.
      await store.updateDoc(H2hCallbackKind, doc.id, { states: ["due"] }, { state: "dropped" });
      return;
    }
    let error: string | undefined;
    try {
      const res = await this.fetch(url, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.any([AbortSignal.timeout(this.o.timeoutMs), this.halt.signal]),
        headers: {
          "content-type": "application/json",
          "x-atl-signature": callbackSignature(usernameOf(v.chat)),
          "x-h2h-signature": createHmac("sha256", digest).update(v.body, "utf8").digest("hex"),
        },
        body: v.body,
      });
      await res.body?.cancel().catch(() => undefined);
      if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
    } catch (err) {
      error = err instanceof Error ? err.name : "error";
    }
    const now = clock.now();
    const attempts = v.attempts + 1;
    if (error === undefined) {
      const { lastError: _was, ...rest } = v;
      await store.updateDoc(H2hCallbackKind, doc.id, { version: doc.version }, { state: "sent", value: { ...rest, attempts } });
      return;
    }
    const giveUp = now - doc.createdAt >= GIVE_UP_AFTER_MS;
    const wait = BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1]!;
    if (giveUp) logger.warn({ id: doc.id, chat: v.chat, attempts, error }, "h2h callback given up after 24 h");
    else logger.info({ id: doc.id, chat: v.chat, attempts, error }, "h2h callback not answered 2xx; tried again later");
    await store.updateDoc(H2hCallbackKind, doc.id, { version: doc.version }, {
      ...(giveUp ? { state: "expired" } : {}),
      value: { ...v, attempts, nextAt: now + wait, lastError: error },
    });
  }
}
