/**
 * Shared for the file store: one process, so it always leads, hints stay in the process, and the
 * update ids and rate counters live in memory. Behaves as the single process always did.
 */
import type { Clock } from "../tools/clock.js";
import { resolveWebhookSecret } from "./webhookSecret.js";
import type { HintKind, LeadFence, Leadership, Shared } from "./shared.js";

/** Telegram resends an update for at most a day; a few thousand ids cover any resend in practice. */
const RECENT_UPDATES = 10_000;

export class LocalShared implements Shared {
  private readonly handlers = new Map<HintKind, ((id: string) => void)[]>();
  private readonly recent = new Set<number>();
  private readonly windows = new Map<string, { start: number; n: number }>();
  private readonly lead: Leadership = {
    run: (onLead) => void onLead(),
    isLeader: () => true,
    stop: async () => {},
  };
  /** One process: its one term is always the current one. */
  private readonly onlyTerm: LeadFence = {
    term: () => 1,
    fenced: async (_term, write) => {
      await write();
      return true;
    },
  };

  constructor(
    private readonly clock: Clock,
    private readonly dataDir: string,
  ) {}

  leadership(): Leadership {
    return this.lead;
  }

  fence(): LeadFence {
    return this.onlyTerm;
  }

  notify(kind: HintKind, id: string): void {
    for (const fn of this.handlers.get(kind) ?? []) fn(id);
  }

  on(kind: HintKind, fn: (id: string) => void): void {
    this.handlers.set(kind, [...(this.handlers.get(kind) ?? []), fn]);
  }

  async claimUpdate(updateId: number): Promise<boolean> {
    if (this.recent.has(updateId)) return false;
    this.recent.add(updateId);
    // A Set iterates in insertion order: the oldest id goes first.
    if (this.recent.size > RECENT_UPDATES) this.recent.delete(this.recent.values().next().value!);
    return true;
  }

  async hit(key: string, windowMs: number): Promise<number> {
    const now = this.clock.now();
    const start = now - (now % windowMs);
    if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (w.start < start) this.windows.delete(k);
    const w = this.windows.get(key);
    if (!w || w.start !== start) {
      this.windows.set(key, { start, n: 1 });
      return 1;
    }
    return ++w.n;
  }

  webhookSecret(): Promise<string> {
    return resolveWebhookSecret(this.dataDir);
  }

  async close(): Promise<void> {}
}
