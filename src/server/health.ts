/**
 * What /healthz reports: facts the parts record as they work (last update handled, last successful
 * provider call, store writes that failed) plus checks made when asked (store writable, loops alive).
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Clock } from "../tools/clock.js";
import type { Store } from "../store/index.js";

export interface HealthSources {
  clock: Clock;
  /** The store; the file store's folder gets a probe, PostgreSQL's health is its canPersist(). */
  store: () => Pick<Store, "canPersist" | "stats">;
  /** Where the file store writes (a probe file is written and removed there). */
  storeDir: string;
  /** The updates loop (long polling runner or webhook) is running. */
  updatesLoop: () => boolean;
  /**
   * Whether this process should have the loop running now (default always): a long polling
   * standby takes no updates until it leads, and is healthy meanwhile.
   */
  updatesLoopExpected?: () => boolean;
  /** "leader" runs the background work; "standby" waits for the lead (two processes on one database). */
  role?: () => "leader" | "standby";
  pendingIds: () => number;
  broadcastRunning: () => Promise<boolean>;
}

export interface HealthReport {
  ok: boolean;
  /** What is wrong, one short phrase each (empty when ok). */
  problems: string[];
  role: "leader" | "standby";
  updatesLoopAlive: boolean;
  lastUpdateHandledAt: string | null;
  storeWritable: boolean;
  lastProviderOkAt: string | null;
  pendingIdsWatched: number;
  broadcastRunning: boolean;
  /** Since when another instance polls with this token (409s) and none reach this one; null when not. */
  pollingConflictSince: string | null;
}

export class Health {
  private lastUpdateAt: number | undefined;
  private lastProviderOkAt: number | undefined;
  private conflictSince: number | undefined;
  /** Store files whose latest write failed (cleared by their next good write). */
  private readonly failingWrites = new Set<string>();

  constructor(private readonly sources: HealthSources) {}

  updateHandled(): void {
    this.lastUpdateAt = this.sources.clock.now();
  }

  providerOk(): void {
    this.lastProviderOkAt = this.sources.clock.now();
  }

  /** Long polling meets another instance polling with this token since `since`; undefined when over. */
  readonly pollingConflict = (since: number | undefined): void => {
    this.conflictSince = since;
  };

  storeWrite(file: string, ok: boolean): void {
    if (ok) this.failingWrites.delete(file);
    else this.failingWrites.add(file);
  }

  async report(): Promise<HealthReport> {
    const problems: string[] = [];
    const loop = this.sources.updatesLoop();
    if (!loop && (this.sources.updatesLoopExpected?.() ?? true)) problems.push("updates loop is not running");
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    if (this.conflictSince !== undefined) {
      problems.push(`another bot instance polls with this token (409 since ${iso(this.conflictSince)}): no updates are handled here`);
    }
    // Read first: with PostgreSQL this read is what finds a database that went away.
    const broadcastRunning = await this.sources.broadcastRunning().catch((e: unknown) => {
      problems.push(`store cannot be read (${e instanceof Error ? e.message : String(e)})`);
      return false;
    });
    const probe = await this.probeStore();
    if (probe !== undefined) problems.push(`store is not writable (${probe})`);
    // PostgreSQL retries nothing by itself: a table's failed write stays failed until canPersist (above) clears.
    const failing = this.sources.store().stats().kind === "file" ? [...this.failingWrites] : [];
    if (failing.length > 0) problems.push(`store writes failing: ${failing.join(", ")}`);
    return {
      ok: problems.length === 0,
      problems,
      role: this.sources.role?.() ?? "leader",
      updatesLoopAlive: loop,
      lastUpdateHandledAt: iso(this.lastUpdateAt),
      storeWritable: !problems.some((p) => p.startsWith("store")),
      lastProviderOkAt: iso(this.lastProviderOkAt),
      pendingIdsWatched: this.sources.pendingIds(),
      broadcastRunning,
      pollingConflictSince: iso(this.conflictSince),
    };
  }

  /** Writes and removes a small file beside the store's; the error code when that fails. */
  private async probeStore(): Promise<string | undefined> {
    const store = this.sources.store();
    if (store.stats().kind === "postgres") return store.canPersist() ? undefined : "database unreachable";
    const file = join(this.sources.storeDir, ".healthz-probe");
    try {
      await writeFile(file, String(this.sources.clock.now()));
      await rm(file, { force: true });
      return undefined;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? "write failed";
    }
  }
}
