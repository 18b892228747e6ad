/**
 * No log line, at any level, carries the bot token or an api key, whatever shape the error that
 * carries it has: network errors are injected on every sending path (a handler's reply, the
 * broadcast, the admin balance round, balance alerts, the watcher's notice) and the captured log
 * is searched.
 */
import { Writable } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeWorld, type World } from "../support/world.js";
import { pendingPrepaid, run } from "../jobs/support.js";
import { settle } from "../support/settle.js";

const ADMIN = 990_201;
const TOKEN_SECRET = FAKE_BOT_TOKEN.split(":")[1]!;
const PROVIDER_KEY = "Qm9ndXNLZXlGb3JMb2dzMTIzNDU2Nzg5MA";

let w: World;
afterEach(() => w?.close());

/** The error shapes a library may throw: the URL in the message, in a field, deep in causes, in the stack. */
const shapes: ((url: string) => Error)[] = [
  (url) => Object.assign(new Error(`request to ${url} failed, reason: socket hang up`), { name: "FetchError", code: "ECONNRESET" }),
  (url) => new TypeError("fetch failed", { cause: Object.assign(new Error(`connect ECONNREFUSED ${url}`), { url, cause: new AggregateError([new Error(url)], "all failed") }) }),
  (url) => Object.assign(new Error("socket closed"), { request: { url: url.replace(":", "%3A"), headers: { referer: url } } }),
  (url) => {
    const e = new Error("timeout");
    e.stack = `Error: timeout\n    at ClientRequest (${url})\n    at https://provider.example/api?api_key=${PROVIDER_KEY}&x=1`;
    return e;
  },
  () => new Error(`upstream https://provider.example/get_profile?api_key=${PROVIDER_KEY} failed`),
];

it("network errors on every sending path never put the bot token or an api key into the log", async () => {
  let log = "";
  const sink = new Writable({ write: (chunk, _enc, done) => ((log += chunk), done()) });
  w = await makeWorld({ adminIds: [ADMIN], watcher: { firstCheckMs: 60 * 60_000 }, logger: createLogger("trace", sink) });
  const admin = w.user({ id: ADMIN, languageCode: "en" });
  const u = await w.linkedUser({ languageCode: "en" });
  const dropAll = (method: string, chatId: number) => {
    for (const error of shapes) w.fake.dropNext(method, { chatId, error });
  };

  // A handler's reply. Its network errors are retried by auto-retry (on real time, so not here);
  // what reaches the log is an answer that quotes a URL.
  const url = `https://api.telegram.org/bot${FAKE_BOT_TOKEN}/sendMessage?api_key=${PROVIDER_KEY}`;
  w.fake.failNext("sendMessage", { error_code: 400, description: `Bad Request: wrong HTTP URL specified: ${url}` }, { chatId: u.chatId });
  await u.sendCommand("saldo");
  expect(log).toContain("handler failed");

  // The admin balance round.
  dropAll("sendMessage", u.chatId);
  for (let i = 0; i < shapes.length; i++) {
    await admin.sendCommand("balances");
    await settle(w.clock, w.deps.balanceRound!.done(), { stepMs: 20 });
  }
  expect(log).toContain("admin balance round: message failed");

  // Balance alerts.
  await w.store.updateChat(u.chatId, { alertThreshold: 10_000_000 });
  dropAll("sendMessage", u.chatId);
  for (let i = 0; i < shapes.length; i++) {
    await w.store.updateChat(u.chatId, { alertFired: false });
    await settle(w.clock, w.deps.alerts!.runRound(), { stepMs: 20 });
  }
  expect(log).toContain("balance message failed");

  // The broadcast.
  dropAll("sendMessage", u.chatId);
  for (let i = 0; i < shapes.length; i++) {
    expect(await w.deps.broadcaster!.start(ADMIN, "en", { kind: "text", text: `news ${i}` })).toMatchObject({ ok: true });
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });
  }
  expect(log).toContain("broadcast message failed");

  // The watcher's notice (sent or edited into the original message).
  const tx = await pendingPrepaid(w, u.chatId, "081234567890");
  dropAll("sendMessage", u.chatId);
  dropAll("editMessageText", u.chatId);
  await run(w, 2 * 60 * 60_000);
  expect((await w.store.getTx(tx.refId))!.status).toBe("success");

  expect(log).toContain("warn");
  expect(log).not.toContain(TOKEN_SECRET);
  expect(log).not.toContain(encodeURIComponent(FAKE_BOT_TOKEN));
  expect(log).not.toContain(PROVIDER_KEY);
  expect(log).not.toContain(w.demoKey);
}, 60_000);
