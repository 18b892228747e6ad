/**
 * The status lookups in flight per key lane: a lane's turn starts one (launch), which reads the record
 * and its chat, asks the provider, gives the lane's slot back once it answered, then applies what it
 * learned. The provider's errors never escape a check; a key whose calls fail rests on its own.
 */
import { OPEN_STATUSES } from "../../store/index.js";
import { lookupTx } from "../../domain/refresh.js";
import { shouldCheck } from "./decide.js";
import type { Lane } from "./lanes.js";
import type { WatcherCore } from "./watchState.js";
import type { NoticeDelivery } from "./noticeDelivery.js";
import { applyDecision } from "./applyDecision.js";

export class Lookups {
  constructor(
    private readonly core: WatcherCore,
    private readonly notices: NoticeDelivery,
    /** The watcher's hurry(): an id hurried while its check ran is checked once more after it. */
    private readonly hurry: (refId: string, signed?: boolean) => Promise<boolean>,
  ) {}

  launch(lane: Lane, refId: string, signalled = false): void {
    const core = this.core;
    core.lanes.started(lane, signalled);
    core.checking.add(refId);
    // The call's slot (concurrency, the key's lane) is given back once the status call answered:
    // the notice that may follow waits for Telegram (and the pacer), not for the provider. The id
    // stays `checking` until its check has applied what it learned.
    let slotHeld = true;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      core.lanes.ended(lane, signalled);
      core.lanes.pump();
    };
    const run = (async () => {
      try {
        await this.check(refId, lane, freeSlot);
      } catch (err) {
        // A bug or a closed store: keep the transaction watched, a little later; soon when the
        // store could not save (what the check learned is told once it can).
        core.deps.logger.error({ err, refId }, "status check failed");
        if (!core.stopped && !core.due.has(refId)) core.schedule(refId, core.deps.clock.now() + core.retryWait(err));
      } finally {
        core.queued.delete(refId);
        core.checking.delete(refId);
        if (!core.due.has(refId)) {
          // Not watched any more.
          core.laneKeys.delete(refId);
          core.lastRead.delete(refId);
        }
        core.forced.delete(refId);
        core.hurried.delete(refId);
        void core.settleWaiters(refId);
        const againSigned = core.again.get(refId);
        if (core.again.delete(refId)) void this.hurry(refId, againSigned).catch(() => undefined); // logged by inBackground
        freeSlot();
        core.due.armNext();
      }
    })();
    core.running.add(run);
    void run.finally(() => core.running.delete(run));
  }

  private async check(refId: string, lane: Lane, freeSlot: () => void): Promise<void> {
    const core = this.core;
    const mode = core.forced.get(refId);
    core.forced.delete(refId);
    const asked = mode !== undefined || core.hurried.has(refId);
    const remembered = asked ? undefined : core.lastRead.get(refId);
    core.lastRead.delete(refId);
    const tx = remembered ?? (await core.deps.store.getTx(refId));
    if (!tx || !OPEN_STATUSES.has(tx.status)) return;
    if (!shouldCheck(tx, asked)) return;
    // One read of the chat per check: its key, whether it was blocked before the call, its callbacks.
    const chat = await core.deps.store.getChat(tx.chatId);
    const apiKey = core.keyOf(chat);
    if (apiKey === undefined || apiKey !== core.laneKeys.get(refId)) {
      // Queued by a key the chat no longer has (or none now): queued afresh, from the store.
      core.laneKeys.delete(refId);
      if (apiKey === undefined) core.park(tx);
      else core.schedule(refId, core.deps.clock.now());
      return;
    }
    const lookup = await lookupTx(core.deps.upstream, apiKey, tx, core.deps.clock.now(), core.options);
    if (core.waiters.has(refId)) core.outcomes.set(refId, lookup);
    if (lookup.kind === "error") {
      lane.backoff.fail(core.deps.clock.now());
      core.deps.logger.warn({ refId, kind: tx.kind, err: lookup.error }, "status check failed; the key rests a while");
    } else {
      lane.backoff.succeed();
    }
    freeSlot();
    // A user's own check runs on any process; the background's writes are the leader's.
    if (mode !== undefined) await applyDecision(core, this.notices, tx, lookup, chat!, mode);
    else await core.leaderOnly(() => applyDecision(core, this.notices, tx, lookup, chat!));
  }
}
