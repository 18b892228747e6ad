/**
 * A create the provider answers with a final outcome while the store cannot save: the reseller is told
 * that outcome once, after the store recovers. The file store takes the answer in memory and its flush
 * fails; the engine's retry then finds the record no longer "sending", takes it as settled elsewhere
 * and only showed "sent, the result is in the next message", so the success stayed saved and untold.
 * Now a failed flush puts the record back to "sending" (the money engine's save, src/money/createOnce.ts).
 */
import { afterEach, expect, it, vi } from "vitest";
import { onPostgres } from "../support/pg.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "./support.js";

let w: World;
afterEach(() => w?.close());

it.skipIf(onPostgres)("a success answered at create while the disk fails is told once the disk is back", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  const real = w.upstream.createTransaction.bind(w.upstream);
  vi.spyOn(w.upstream, "createTransaction").mockImplementation(async (key, req) => {
    const answer = await real(key, req);
    await w.breakStore(); // the disk fills while the provider answers
    return { ...answer, status: "success" };
  });
  await u.pressButton(/Confirm/);
  await w.repairStore();
  await run(w, 10_000);
  const [tx] = (await w.store.listTxByChat(u.chatId)).items;
  expect(tx!.status).toBe("success");
  const told = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /Transaction successful/.test(String(c.payload.text)));
  expect(told).toHaveLength(1);
});
