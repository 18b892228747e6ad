/**
 * An outcome the provider reports while the store cannot save is told once writing works again:
 * the notice message (the phone rings) and the edited original, promptly after the store recovers,
 * also when the process restarts in between.
 * On PostgreSQL a broken database costs real time (each failing connect waits up to its connect
 * timeout): hence the longer time limit. There the lead goes with the database: the app is started as
 * in production, so the lead's loss and return stop and start the watcher (LeaderWork).
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { onPostgres } from "../support/pg.js";
import { until } from "../support/settle.js";
import { noticesAbout, pendingPrepaid, pendingQris, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;
const LIMIT = { timeout: 60_000 };

async function startedWorld(): Promise<World> {
  w = await makeWorld({ watcher: true });
  await w.app.start();
  return w;
}

async function successSeenWhileStoreBroken(): Promise<{ chatId: number; refId: string; messageId: number }> {
  w = await startedWorld();
  const u = await w.linkedUser();
  const tx = await pendingPrepaid(w, u.chatId, "081234567890");
  await w.breakStore();
  await run(w, 6 * S); // the sandbox settles at 5 s: the watcher's check sees success and cannot save
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
  return { chatId: u.chatId, refId: tx.refId, messageId: tx.messageId! };
}

/**
 * On PostgreSQL the lead went with the database: the watcher starts again (after a term check) once
 * the lead is back, and only then has a check to wait for (or, the clock having moved, made it). On the
 * files it never stopped. The clock moves meanwhile: a start that found the database not yet reachable
 * gives the lead up and tries again on the clock, and the store's reachability gate answers on it.
 */
async function watcherBack(refId: string): Promise<void> {
  const checked = async () => w.watcher!.nextWakeAt() !== undefined || (await w.store.getTx(refId))?.status !== "pending";
  await until(checked, { clocks: [w.clock], stepMs: 100, tries: 500, what: "the watcher did not start again" });
}

async function expectToldOnce(chatId: number, refId: string, messageId: number): Promise<void> {
  expect(noticesAbout(w, chatId, refId)).toHaveLength(1);
  expect(w.fake.message(chatId, messageId)!.text).toContain("Berhasil");
  expect(await w.store.getTx(refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
  await run(w, 30 * MIN);
  expect(noticesAbout(w, chatId, refId)).toHaveLength(1);
}

it("a success seen while the store cannot save is told once, within seconds of the store recovering", LIMIT, async () => {
  const { chatId, refId, messageId } = await successSeenWhileStoreBroken();
  await w.repairStore();
  const repairedAt = w.clock.now();
  await watcherBack(refId);
  await run(w, 10 * S);
  expect(w.clock.now() - repairedAt).toBeLessThanOrEqual(20 * S);
  await expectToldOnce(chatId, refId, messageId);
});

it("the same with a restart after the store recovered: told once by the new process", LIMIT, async () => {
  const { chatId, refId, messageId } = await successSeenWhileStoreBroken();
  await w.repairStore();
  await w.restart();
  await run(w, 10 * S);
  await expectToldOnce(chatId, refId, messageId);
});

// On PostgreSQL a store that cannot save cannot be read either: the button gets the storage answer (below).
it.skipIf(onPostgres)("a deposit's payment seen by a user's button while the store cannot save stays owed, and is told once it can", LIMIT, async () => {
  w = await startedWorld();
  const u = await w.linkedUser();
  const tx = await pendingQris(w, u.chatId);
  await w.breakStore();
  w.sandbox.payDeposit(tx.upstreamId!);
  // Cancel refused (paid): the button looks the deposit up, and its answer cannot be saved.
  await u.pressButton("Cancel", { messageId: tx.messageId! });
  await u.pressButton(/Ya, batalkan/);
  expect(u.lastReply()).not.toContain("SUDAH DIBAYAR");
  // The cancel question names the reference too: the notice is one more message.
  const asked = noticesAbout(w, u.chatId, tx.refId).length;
  await run(w, 6 * S);
  await w.repairStore();
  await run(w, 10 * S);
  const caption = () => w.fake.message(u.chatId, tx.messageId!)!.caption;
  expect(caption()).toContain("SUDAH DIBAYAR");
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(asked + 1);
  expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "processing", watch: { notified: "processing" } });
  await run(w, 30 * MIN);
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(asked + 1);
});

it.runIf(onPostgres)("a deposit paid while the database is down: the button gets the storage answer, and the payment is told once the database is back", LIMIT, async () => {
  w = await startedWorld();
  const u = await w.linkedUser();
  const tx = await pendingQris(w, u.chatId);
  const asked = noticesAbout(w, u.chatId, tx.refId).length;
  await w.breakStore();
  w.sandbox.payDeposit(tx.upstreamId!);
  await u.pressButton("Cancel", { messageId: tx.messageId! });
  expect(u.lastReply()).toMatch(/[Pp]enyimpanan/);
  await run(w, 6 * S);
  await w.repairStore();
  await watcherBack(tx.refId);
  await run(w, 10 * S);
  const caption = () => w.fake.message(u.chatId, tx.messageId!)!.caption;
  expect(caption()).toContain("SUDAH DIBAYAR");
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(asked + 1);
  expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "processing", watch: { notified: "processing" } });
  await run(w, 30 * MIN);
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(asked + 1);
});
