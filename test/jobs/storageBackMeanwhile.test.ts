/**
 * A check whose save failed (a full or read-only disk) is tried again soon: its news is owed. The
 * store may already save again by the time the watcher decides when (its own retry, or the disk
 * freed meanwhile): the failure, not the store's state a moment later, says it was the store.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingQris, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;

it("a paid QRIS whose check could not save is told within seconds, also when the disk works again before the retry is scheduled", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const dep = await pendingQris(w, u.chatId, "qrisfast");
  // One save fails as a read-only disk makes it fail; the disk is writable again right after.
  const store = w.store;
  let failed = false;
  const failOnce = <A extends unknown[]>(save: (...a: A) => Promise<void>) => async (...a: A) => {
    if (!failed) {
      failed = true;
      throw Object.assign(new Error("EROFS: read-only file system, write"), { code: "EROFS" });
    }
    return save(...a);
  };
  store.flush = failOnce(store.flush.bind(store));
  store.flushTx = failOnce(store.flushTx.bind(store));
  w.sandbox.payDeposit(dep.upstreamId!);
  await run(w, 6 * S); // the first check sees the payment and cannot save
  expect(failed).toBe(true);
  expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(0);
  await run(w, 10 * S);
  expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(1);
});
