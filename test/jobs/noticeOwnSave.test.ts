/**
 * A notice waits for its own record's marker to be saved (announce.ts, step 1), not for every other
 * change in the store. On a busy file store (10,000 open sales, 100 changing a second) a flush of the
 * whole store waits for a pass over tens of changed shard files, and on a loaded machine each of those
 * writes waits for the event loop several times: the notices came seconds late (bench/watcher.ts).
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { until } from "../support/settle.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("a sale's notice goes out while other records' changes are still being written", async () => {
  w = await makeWorld({ watcher: true, sandbox: { settleMs: 60 * 60_000 } });
  const world = w;
  const u = await world.linkedUser();
  const tx = await pendingPrepaid(world, u.chatId, "081234567890");
  // From here a flush of the whole store does not finish: other records' files are still being
  // written (held until the end of the test). The sale's own record is saved as usual.
  const held: (() => void)[] = [];
  const flush = world.store.flush.bind(world.store);
  world.store.flush = () => new Promise<void>((resolve) => held.push(() => void flush().then(resolve)));

  world.sandbox.settle(tx.upstreamId!, "success");
  await until(() => noticesAbout(world, u.chatId, tx.refId).length === 1, {
    clocks: [world.clock],
    stepMs: 100,
    tries: 600,
    what: "the notice waited for the whole store's flush",
  });
  for (const release of held) release();
  world.store.flush = flush;
  await run(world, 1000);
  expect((await world.store.getTx(tx.refId))!.status).toBe("success");
  expect(noticesAbout(world, u.chatId, tx.refId)).toHaveLength(1);
});
