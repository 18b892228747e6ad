/**
 * Notices that met Telegram failing (5xx, timeouts, 429) reach their chats soon after Telegram answers
 * again: one notice probes after 1, 2, 4, then every 5 s, and when one gets through the others go at
 * once (telegramGate.ts). Before, each waited its own 10 s retry, so news could come 10 s + its sends
 * after Telegram was back (11.2 s in the chaos run). A 429's retry_after still holds every send.
 */
import { afterEach, expect, it } from "vitest";
import { apiError, TelegramErrors, type RecordedCall } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { pendingPrepaid, pendingQris, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;

const content = (c: RecordedCall) => c.method === "sendMessage" || c.method.startsWith("editMessage");

it("three notices that met a 502 outage of 47 s all go out within 5 s of Telegram answering again", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const txs = [await pendingPrepaid(w, u.chatId, "081234567890"), await pendingPrepaid(w, u.chatId, "081234567891"), await pendingPrepaid(w, u.chatId, "081234567892")];
  let down = true;
  const tried: number[] = [];
  w.fake.setResponder((method, payload, call) => {
    if (!down || payload.chat_id !== u.chatId || !content({ method } as RecordedCall)) return undefined;
    tried.push(call!.at);
    return apiError(502, "Bad Gateway");
  });
  await run(w, 47 * S); // the sales settle at 5 s; their notices meet the outage from then on
  // Back a moment after the last try: the worst point for a fixed retry interval.
  await run(w, tried.at(-1)! + 100 - w.clock.now());
  down = false;
  const back = w.clock.now();
  await run(w, 20 * S);

  for (const tx of txs) {
    const sent = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && c.response?.ok && String(c.payload.text).includes(tx.refId));
    expect(sent.length).toBeLessThanOrEqual(1);
    const shown = w.fake.message(u.chatId, tx.messageId!)!;
    expect(shown.text).toContain("Berhasil");
    const newsAt = Math.min(...[...sent, ...w.fake.sentTo(u.chatId).filter((c) => c.method === "editMessageText" && c.payload.message_id === tx.messageId && c.response?.ok)].map((c) => c.at));
    expect(newsAt - back).toBeLessThanOrEqual(5 * S);
  }
  // The outage cost at most one probe per pause plus each notice's 10 s retry (an edit and a send each).
  const during = tried.filter((t) => t > 6 * S + tried[0]! - 1);
  expect(during.length).toBeLessThanOrEqual(2 * (Math.ceil(41 / 5) + 3 * Math.ceil(41 / 10)) + 6);
});

// One sale: two checks at once would have one wait in the pacer on the clock, which run() cannot step.
it("a 429 on the notice: nothing goes to the chat before its retry_after ends, and the notice follows then", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const txs = [await pendingPrepaid(w, u.chatId, "081234567890")];
  let limitedUntil: number | undefined;
  const calls: number[] = [];
  w.fake.setResponder((method, payload, call) => {
    if (payload.chat_id !== u.chatId || !content({ method } as RecordedCall)) return undefined;
    calls.push(call!.at);
    if (limitedUntil === undefined) {
      limitedUntil = call!.at + 7 * S;
      return apiError(429, "Too Many Requests: retry after 7", 7);
    }
    return undefined;
  });
  await run(w, 30 * S);
  expect(limitedUntil).toBeDefined();
  expect(calls.filter((t) => t > limitedUntil! - 7 * S && t < limitedUntil!)).toEqual([]);
  for (const tx of txs) {
    const sent = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && c.response?.ok && String(c.payload.text).includes(tx.refId));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.at - limitedUntil!).toBeLessThanOrEqual(5 * S);
  }
});

it("an owed notice whose chat came back during a 502 outage goes out within 5 s of Telegram answering again", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const dep = await pendingQris(w, u.chatId, "qrisfast");
  let fault: "blocked" | "502" | undefined = "blocked";
  const tried: number[] = [];
  w.fake.setResponder((method, payload, call) => {
    if (!fault || payload.chat_id !== u.chatId || !content({ method } as RecordedCall)) return undefined;
    if (fault === "blocked") return TelegramErrors.blocked();
    // The outage hits the deposit's notice and edits (the reseller's own answers get through).
    if (!JSON.stringify(payload).includes(dep.refId)) return undefined;
    tried.push(call.at);
    return apiError(502, "Bad Gateway");
  });
  await w.store.updateChat(u.chatId, { inactive: true });
  w.sandbox.payDeposit(dep.upstreamId!);
  await run(w, 10 * S);
  expect((await w.store.getTx(dep.refId))?.watch).toMatchObject({ owed: "success" });

  fault = "502";
  await u.sendCommand("saldo"); // back: its owed notice meets the outage
  // The owed retries run on clock timers, which run() does not stop at: quarter-second steps.
  const stepped = async (ms: number) => {
    for (const end = w.clock.now() + ms; w.clock.now() < end; ) await run(w, Math.min(250, end - w.clock.now()));
  };
  await stepped(33 * S);
  await stepped(tried.at(-1)! + 100 - w.clock.now());
  fault = undefined;
  const back = w.clock.now();
  await stepped(20 * S);
  // Its send may have gone out (a 502): the retry shows it on the QR's caption, a notice only if none went.
  const news = w.fake.sentTo(u.chatId).filter((c) => c.response?.ok && c.at >= back && JSON.stringify(c.payload).includes(dep.refId));
  expect(w.fake.message(u.chatId, dep.messageId!)!.caption).toContain("LUNAS");
  expect(news[0]!.at - back).toBeLessThanOrEqual(5 * S);
});
