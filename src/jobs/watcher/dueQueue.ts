/**
 * The queue of due checks: ids whose due time came are read from the store and put in their key's
 * lane (or parked when their chat cannot be polled); an id a provider callback names (hurry) goes
 * first in its lane.
 */
import { OPEN_STATUSES, type TxRecord } from "../../store/index.js";
import type { WatcherCore } from "./watchState.js";
import { MINUTE } from "./watcherOptions.js";

export class DueQueue {
  private lastPrune = 0;

  constructor(private readonly core: WatcherCore) {}

  async tick(now: number): Promise<void> {
    const core = this.core;
    if (core.stopped) return;
    const taken = core.due.takeDue(now);
    // Out of the schedule and not queued yet while the store is read: the rescan must not adopt them again.
    for (const refId of taken) core.placing.add(refId);
    for (const refId of taken) {
      try {
        await this.enqueue(refId);
      } catch (err) {
        // The store could not be read: keep the transaction watched, a little later.
        core.deps.logger.error({ err, refId }, "could not queue a status check");
        core.schedule(refId, now + core.retryWait(err));
      } finally {
        core.placing.delete(refId);
      }
    }
    if (core.stopped) return;
    if (now - this.lastPrune >= MINUTE) {
      this.lastPrune = now;
      core.lanes.prune(now);
    }
    core.lanes.pump();
    core.due.armNext();
  }

  /** Puts a due transaction in its key's lane (or parks it when its chat cannot be polled). */
  private async enqueue(refId: string): Promise<void> {
    const core = this.core;
    if (core.queued.has(refId)) return; // being checked: that check reschedules it
    const key = core.laneKeys.get(refId);
    if (key !== undefined) {
      core.queued.add(refId);
      core.lanes.push(core.lanes.laneOf(key), refId, false);
      return;
    }
    const tx = await core.deps.store.getTx(refId);
    const apiKey = tx && OPEN_STATUSES.has(tx.status) ? await core.pollableKey(tx.chatId) : undefined;
    this.place(refId, tx, apiKey, false);
  }

  /** enqueue's second half, in one turn with the queues: `tx` and `apiKey` as just read. */
  private place(refId: string, tx: TxRecord | undefined, apiKey: string | undefined, urgent: boolean | "signalled"): void {
    const core = this.core;
    if (core.queued.has(refId)) return; // queued (or checked) while the store was read
    if (!tx || !OPEN_STATUSES.has(tx.status)) {
      void core.settleWaiters(refId);
      return;
    }
    if (apiKey === undefined) {
      core.park(tx);
      void core.settleWaiters(refId);
      return;
    }
    core.queued.add(refId);
    core.laneKeys.set(refId, apiKey);
    core.lanes.push(core.lanes.laneOf(apiKey), refId, urgent);
  }

  /** StatusWatcher.hurry: `refId` first in its key's lane (signed: at once); false when there is nothing to check. */
  hurry(refId: string, signed = false): Promise<boolean> {
    const hurrying = this.hurryNow(refId, signed);
    this.core.inBackground(hurrying.then(() => undefined));
    return hurrying;
  }

  private async hurryNow(refId: string, signed: boolean): Promise<boolean> {
    const core = this.core;
    if (!core.started || core.stopped) return false; // start() schedules every open id anyway
    const tx = await core.deps.store.getTx(refId);
    if (!tx || !OPEN_STATUSES.has(tx.status)) return false;
    const apiKey = await core.pollableKey(tx.chatId);
    // From here on one turn: the queues are as the checks left them.
    if (core.stopped) return false;
    core.hurried.add(refId);
    if (core.checking.has(refId)) {
      core.again.set(refId, signed || core.again.get(refId) === true);
      return true;
    }
    if (core.queued.has(refId)) {
      const lane = apiKey === undefined ? undefined : core.lanes.find(apiKey);
      if (lane && signed && (lane.queue.remove(refId) || lane.urgent.remove(refId))) core.lanes.push(lane, refId, "signalled");
      else if (lane?.queue.remove(refId)) lane.urgent.push(refId);
    } else {
      core.due.delete(refId); // its heap entry goes stale; the check reschedules it
      this.place(refId, tx, apiKey, signed ? "signalled" : true);
      if (!core.queued.has(refId)) core.hurried.delete(refId); // parked: its chat cannot be polled now
    }
    core.lanes.pump();
    core.due.armNext();
    return true;
  }
}
