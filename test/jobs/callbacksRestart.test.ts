/**
 * A chat whose provider callbacks work has its pending ids polled slowly (the callbacks tell changes
 * at once). Callbacks the provider sends while no process listens (a restart, a deploy) are lost:
 * after a start such ids are checked at once, not at their slow pace minutes later.
 */
import { afterEach, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run, statusCalls } from "./support.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const S = 1000;
const MIN = 60 * S;

it("a sale whose callback was lost while the bot restarted is told within seconds of the start, not at its next slow poll", async () => {
  w = await makeWorld({ watcher: true, sandbox: { settleMs: 60 * MIN }, env: { HTTP_PORT: "0", PUBLIC_URL: "http://127.0.0.1:9" } });
  await w.app.start();
  const u = await w.linkedUser({ languageCode: "id" });
  const { username } = await w.upstream.getProfile(w.demoKey);
  const token = `tok${u.chatId}abcdefghijklmnopqrstu`;
  await w.store.updateChat(u.chatId, { providerUsername: username, callbackToken: token });
  // One valid callback: the chat's callbacks work, its ids are polled when their age doubles.
  const first = await pendingPrepaid(w, u.chatId, "081200000001");
  w.sandbox.settle(first.refId, "success");
  const answer = await fetch(`${w.app.http()!.url}/provider/${token}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-atl-signature": callbackSignature(username) },
    body: JSON.stringify({ event: "transaksi", status: "success", data: { id: first.upstreamId, reff_id: first.refId, status: "success" } }),
  });
  expect(answer.status).toBe(200);
  await run(w, S);

  const tx = await pendingPrepaid(w, u.chatId, "081234567890");
  await run(w, 70 * S); // checked once, at 1 min of age; the next at 2 min
  expect(statusCalls(w, tx.upstreamId)).toBe(1);

  // The bot restarts; the sale succeeds meanwhile and its callback finds nobody listening.
  w.sandbox.settle(tx.refId, "success");
  await w.restart();
  await w.app.start();
  await run(w, 10 * S);
  expect(noticesAbout(w, u.chatId, tx.refId).filter((t) => t.includes("Transaksi berhasil"))).toHaveLength(1);
});
