/**
 * The provider may call back about a sale before the watcher has marked it watched (an instant answer,
 * a loaded process): the check that callback asks for may fail (the provider errs) and set the sale's
 * next check a few seconds on. Marking it watched afterwards must not push that check to the
 * callbacks' slow pace.
 */
import { afterEach, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const S = 1000;
const MIN = 60 * S;

it("a sale whose callback's check met a 502 before it was tracked is checked again within seconds, not a minute later", async () => {
  w = await makeWorld({ watcher: true, sandbox: { settleMs: 60 * MIN }, env: { HTTP_PORT: "0", PUBLIC_URL: "http://127.0.0.1:9" } });
  await w.app.start();
  const u = await w.linkedUser({ languageCode: "id" });
  const { username } = await w.upstream.getProfile(w.demoKey);
  const token = `tok${u.chatId}abcdefghijklmnopqrstu`;
  await w.store.updateChat(u.chatId, { providerUsername: username, callbackToken: token });
  const post = (refId: string, upstreamId: string | undefined) =>
    fetch(`${w!.app.http()!.url}/provider/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-atl-signature": callbackSignature(username) },
      body: JSON.stringify({ event: "transaksi", status: "success", data: { id: upstreamId, reff_id: refId, status: "success" } }),
    });
  // The chat's callbacks work.
  const first = await pendingPrepaid(w, u.chatId, "081200000001");
  w.sandbox.settle(first.refId, "success");
  expect((await post(first.refId, first.upstreamId)).status).toBe(200);
  await run(w, S);

  // A new sale, saved as the engine saves it; its callback comes before the "created" hook runs.
  const r = await w.upstream.createTransaction(w.demoKey, { code: "S10", reffId: "TP260115RACE0001", target: "081234567890", limitPrice: 100_000 });
  const sent = await w.bot.api.sendMessage(u.chatId, "⏳ pending");
  const tx = await w.store.createTx({ refId: "TP260115RACE0001", chatId: u.chatId, kind: "prepaid", status: "pending", upstreamId: r.id, code: "S10", title: r.productName, target: "081234567890", amount: r.price, messageId: sent.message_id });
  w.sandbox.settle(tx.refId, "success");
  w.sandbox.fault("/transaksi/status", "html502", 1);
  expect((await post(tx.refId, tx.upstreamId)).status).toBe(200);
  await w.watcher!.whenIdle(); // its check met the 502: due again after the key's pause
  w.deps.events.emit("created", tx);
  await w.watcher!.whenIdle();

  await run(w, 10 * S);
  expect(noticesAbout(w, u.chatId, tx.refId).filter((t) => t.includes("Transaksi berhasil"))).toHaveLength(1);
});
