/**
 * The scan of the open transactions: at start (resuming their saved due times), every `rescanMs`
 * after it (an id whose hint was lost is picked up anyway), and one id at a time for a hint from
 * another process (adopt).
 */
import type { TimerHandle } from "../../tools/clock.js";
import { OPEN_STATUSES, type TxRecord } from "../../store/index.js";
import { adoptDue, usesCallbacks } from "./decide.js";
import type { WatcherCore } from "./watchState.js";

export class Rescan {
  private rescanTimer: TimerHandle | undefined;

  constructor(private readonly core: WatcherCore) {}

  /** StatusWatcher.start: every open transaction scheduled from the store, then the due times and the rescan run. */
  async start(): Promise<void> {
    const core = this.core;
    if (core.started || core.stopped) return;
    core.started = true;
    core.paused = false;
    core.term = core.deps.fence?.term();
    const now = core.deps.clock.now();
    const callbacksOn = new Map<number, boolean>();
    for (const tx of await core.deps.store.openTxs()) {
      // Callbacks the provider sent while no process here listened are lost: an id paced by them
      // is checked now, not at its slow pace (minutes later).
      const lostCallbacks = usesCallbacks(tx) && (await this.callbacksWork(tx.chatId, now, callbacksOn));
      this.adoptTx(tx, false, lostCallbacks ? now : undefined);
    }
    core.due.start();
    this.scheduleRescan();
  }

  /** No more rescans (pause, stop). */
  cancel(): void {
    this.rescanTimer?.cancel();
  }

  /** StatusWatcher.adopt: a hinted open transaction, scheduled if it is not. */
  async adopt(refId: string): Promise<void> {
    const core = this.core;
    if (!core.started || core.stopped) return;
    const tx = await core.deps.store.getTx(refId);
    if (!core.started || core.stopped) return;
    if (tx && OPEN_STATUSES.has(tx.status)) {
      this.adoptTx(tx, true);
      core.due.armNext();
    }
  }

  /**
   * Schedules `tx` if it is not. A scheduled id keeps its time: a young id's saved due time lags
   * behind the real one (see applyDecision). Only a hint (`sooner`), sent right after the other process
   * saved the first due time, may bring it forward (the rescan may have seen it still "sending").
   * `notAfter`: due no later than this (a start, for an id its chat's callbacks pace).
   */
  private adoptTx(tx: TxRecord, sooner = false, notAfter?: number): void {
    const core = this.core;
    const saved = adoptDue(tx, core.deps.clock.now(), core.options, core.madeAt);
    const at = saved === undefined || notAfter === undefined ? saved : Math.min(saved, notAfter);
    if (at === undefined || core.queued.has(tx.refId) || core.placing.has(tx.refId) || core.dropped.has(tx.refId)) return;
    const due = core.due.at(tx.refId);
    if (due !== undefined && (!sooner || due <= at)) return;
    core.schedule(tx.refId, at);
  }

  private scheduleRescan(): void {
    const core = this.core;
    if (core.options.rescanMs <= 0 || !core.started || core.stopped) return;
    this.rescanTimer?.cancel();
    this.rescanTimer = core.deps.clock.setTimeout(() => {
      const run = (async () => {
        if (!core.started || core.stopped) return;
        for (const tx of await core.deps.store.openTxs()) this.adoptTx(tx);
        core.due.armNext();
      })()
        .catch((err: unknown) => core.deps.logger.error({ err }, "watcher could not rescan the open transactions"))
        .finally(() => this.scheduleRescan());
      core.running.add(run);
      void run.finally(() => core.running.delete(run));
    }, core.options.rescanMs);
  }

  /** Whether the chat's callbacks count as working at `now` (read once per chat into `seen`). */
  private async callbacksWork(chatId: number, now: number, seen: Map<number, boolean>): Promise<boolean> {
    let on = seen.get(chatId);
    if (on === undefined) {
      const last = (await this.core.deps.store.getChat(chatId))?.callbacksLastAt;
      on = last !== undefined && now - last < this.core.options.callbacksFreshMs;
      seen.set(chatId, on);
    }
    return on;
  }
}
