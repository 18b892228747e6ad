/**
 * Failover as an operator runs it: two `node dist/main.js` processes on one PostgreSQL,
 * one Telegram (a fake Bot API over HTTP) and one provider (the sandbox over HTTP, in this test
 * process, so the test decides when each sale settles). The leader is killed with SIGKILL right
 * after one notice reached Telegram and before it could record that; the standby must take over
 * within 30 s and announce every remaining change exactly once (announce.ts: a re-edit of the same
 * receipt is not a second notice, a second new message is). Real processes and clocks: every wait is a bounded poll for a condition.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, DEMO_KEY } from "../../src/sandbox/index.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser } from "../support/chat.js";
import { FakeBotApi, type RecordedCall } from "../support/fakeBotApi.js";
import { buildDist, startMain, type MainProcess } from "../support/mainProcess.js";
import { freshDatabase, hasPg } from "../support/pg.js";

beforeAll(buildDist, 180_000);

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
  cleanup = [];
});

const HOUR = 3_600_000;
const SUCCESS = "Transaksi berhasil";
const FAILED = "Transaksi gagal";

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-failover-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function start(env: Record<string, string>): MainProcess {
  const p = startMain(env);
  cleanup.push(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await p.exited;
  });
  return p;
}

/** Waits (bounded) until `text` appears in a process's log. */
async function logged(p: MainProcess, text: string, timeout = 20_000): Promise<void> {
  await expect.poll(() => p.output(), { timeout, interval: 20 }).toContain(text);
}

describe.skipIf(!hasPg)("failover: two bot processes on one PostgreSQL", () => {
  it("the leader is killed -9 while announcing; the standby takes over within 30 s and every change is announced once", async () => {
    const url = await freshDatabase();
    const db = postgres(url, { max: 1, onnotice: () => undefined });
    cleanup.push(() => db.end());
    // Nothing settles by itself within the test: sandbox.settle() decides.
    const sandbox = await createSandbox({ settleMs: HOUR, seed: 7 });
    cleanup.push(() => sandbox.close());
    const fake = new FakeBotApi();
    const server = await fake.startServer();
    cleanup.push(() => server.close());
    const env = async (): Promise<Record<string, string>> => ({
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: server.apiRoot,
      UPSTREAM_BASE_URL: sandbox.url,
      STORE_URL: url,
      STORE_SECRET: "failover-secret-0123456789abcdef",
      DATA_DIR: await tempDir(),
      LOG_LEVEL: "info",
    });

    // 1. A leads and polls; B stands by and does not poll.
    const a = start(await env());
    await logged(a, "leading: running background work");
    await fake.waitFor("getUpdates", 20_000, { answered: false });
    const b = start(await env());
    await logged(b, "standing by: another process leads");
    expect(b.output()).not.toContain("bot is polling");
    expect(b.output()).not.toContain("leading: running");

    // 2. A user links the demo key and buys N times; every sale stays pending at the provider.
    const u = makeUser(null, fake, { languageCode: "id", firstName: "Rina", pollingTimeoutMs: 15_000 });
    /** Does `act` and waits until the bot sent or edited a message in the chat whose text has `want`. */
    const sentAt: number[] = [];
    const step = async (act: () => Promise<unknown>, want: string): Promise<RecordedCall> => {
      // A person's pace: under the bot's flood limit (8 updates in 3 s, src/bot/index.ts), which
      // would otherwise answer "too fast" (a quick reseller would just send again).
      while (sentAt.filter((t) => t > Date.now() - 3_500).length >= 7) await new Promise((r) => setTimeout(r, 50));
      sentAt.push(Date.now());
      const from = fake.nextSeq;
      await act();
      return fake.waitFor((c) => c.seq >= from && fake.sentTo(u.chatId).includes(c) && (fake.textOf(c) ?? "").includes(want), 15_000).catch((err: unknown) => {
        const chat = fake.sentTo(u.chatId).slice(-4).map((c) => `${c.method}: ${fake.textOf(c)}`).join("\n---\n");
        throw new Error(`${String(err)}\nwaiting for "${want}"; the chat's last messages:\n${chat}`);
      });
    };
    await step(() => u.sendCommand("start"), "API key");
    await step(() => u.sendText(DEMO_KEY), "API key terhubung");
    const N = 8;
    for (let i = 0; i < N; i++) {
      await step(() => u.sendCommand("beli", `S10 08123456781${i}`), "Periksa sebelum konfirmasi");
      await step(() => u.pressButton(/Konfirmasi/), "Sedang diproses");
    }
    const rows = await db<{ ref_id: string; status: string }[]>`SELECT ref_id, status FROM txs WHERE chat_id = ${u.chatId} ORDER BY created_at`;
    expect(rows.map((r) => r.status)).toEqual(Array(N).fill("pending"));
    const refs = rows.map((r) => r.ref_id);
    const outcome = new Map(refs.map((ref, i) => [ref, i % 3 === 2 ? ("failed" as const) : ("success" as const)]));
    const headline = (ref: string) => (outcome.get(ref) === "success" ? SUCCESS : FAILED);
    /** New messages (not edits) telling the chat that `ref` reached its final status. */
    const notices = (ref: string) => fake.callsOf("sendMessage").filter((c) => c.payload.chat_id === u.chatId && c.response?.ok !== false && tells(c, ref));
    const tells = (c: RecordedCall, ref: string) => (fake.textOf(c) ?? "").includes(ref) && (fake.textOf(c) ?? "").includes(headline(ref));

    // 3. Some settle and A announces them; then the rest settle and A dies while announcing them.
    const early = refs.slice(0, 3);
    const late = refs.slice(3);
    for (const ref of early) expect(sandbox.settle(ref, outcome.get(ref)!)).toBe(true);
    await expect.poll(() => early.every((ref) => notices(ref).length > 0), { timeout: 20_000, interval: 20 }).toBe(true);
    const settledSeq = fake.nextSeq;
    for (const ref of late) expect(sandbox.settle(ref, outcome.get(ref)!)).toBe(true);
    // Mid-round: A's first notice of one of them reaches Telegram; kill -9 before A can record that it
    // did (announce.ts step 3). Its other checks are then anywhere in their rounds.
    const first = await fake.waitFor((c) => c.seq >= settledSeq && c.method === "sendMessage" && late.some((ref) => tells(c, ref)), 20_000, { answered: false });
    expect(b.output()).not.toContain("bot is polling");
    a.child.kill("SIGKILL");
    const killedAt = Date.now();
    const killedSeq = fake.nextSeq;
    expect(await a.exited).toBe(null); // died by the signal, no clean stop

    // 4. B leads and polls within 30 s of the kill.
    await logged(b, "leading: running background work", 30_000);
    await fake.waitFor((c) => c.method === "getUpdates" && c.seq >= killedSeq, 30_000, { answered: false });
    const takeOverMs = Date.now() - killedAt;
    expect(takeOverMs, "ms from kill -9 to B polling").toBeLessThan(30_000);

    // Every final status reaches PostgreSQL...
    await expect
      .poll(async () => (await db<{ ref_id: string; status: string }[]>`SELECT ref_id, status FROM txs WHERE chat_id = ${u.chatId}`).map((r) => `${r.ref_id}:${r.status}`).sort(), {
        timeout: 30_000,
        interval: 100,
      })
      .toEqual(refs.map((ref) => `${ref}:${outcome.get(ref)}`).sort());
    const txs = await db<{ ref_id: string; data: { messageId?: number; watch?: { notified?: string; announcing?: string } } }[]>`SELECT ref_id, data FROM txs WHERE chat_id = ${u.chatId}`;
    // ...recorded as announced, no notice left half done...
    expect(txs.map((t) => `${t.ref_id}:${t.data.watch?.notified}:${t.data.watch?.announcing}`).sort()).toEqual(
      refs.map((ref) => `${ref}:${outcome.get(ref)}:undefined`).sort(),
    );
    const messageOf = new Map(txs.map((t) => [t.ref_id, t.data.messageId]));
    for (const ref of refs) {
      // ...the receipt the user holds shows it (edits of it, repeated after the crash, are one message)...
      const receipt = fake.message(u.chatId, messageOf.get(ref)!);
      expect(receipt?.text, ref).toContain(headline(ref));
      // ...and at most one new message tells of it: none only when A died between marking the notice
      // and sending it (announce.ts: then the edited receipt is the notice, never a second message).
      expect(notices(ref).length, ref).toBeLessThanOrEqual(1);
    }
    // The ones announced before the kill, and the one whose notice A sent just before dying, have theirs.
    for (const ref of early) expect(notices(ref), ref).toHaveLength(1);
    expect(late.filter((ref) => tells(first, ref)).map((ref) => notices(ref).length)).toEqual([1]);
    // Besides that one, A can have been in the middle of one more (its watcher checks 2 per key at a time).
    expect(late.filter((ref) => notices(ref).length === 1).length).toBeGreaterThanOrEqual(late.length - 1);
    // The user can go on through B.
    await step(() => u.sendCommand("saldo"), "Saldo");

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  }, 120_000);
});
