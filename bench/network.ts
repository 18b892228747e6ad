/**
 * A reseller's network at once (issue 37): the downlines of one owner press Confirm together, each
 * buying from its wallet with the owner's key; the baseline in the same run is the same burst by as
 * many owners buying for themselves with their own keys, and one-at-a-time presses by the network's
 * owner and by one of its downlines. Confirm -> create is timed as bench/confirm.ts does (the press
 * handed to the bot -> the sandbox's server receiving the create), here at production pacing: the
 * answers go through the shared 29/s pacer and the fake Bot API answers 429 past 30 a second, as in
 * bench/flood.ts. So a burst's presses queue for Telegram's budget, for owners and downlines alike.
 *
 * The network is made through the domain (Network.invite + join, Wallets.adjust), never raw rows.
 * Each downline is funded with exactly its burst purchase's price (the first one, the sequential
 * downline, with plenty); one target in 20 fails at the sandbox (its hold released). Afterwards every
 * record's outcome is fetched (watcher.checkNow, the notice left to the caller: no message) and the
 * wallets are checked: each success debited by exactly one `<ref>:d` entry, nothing else debited,
 * each balance the sum of its entries, none below zero, nothing left on hold.
 */
import { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import type { TxRecord, WalletEntry } from "../src/store/index.js";
import { ENDPOINTS } from "../src/upstream/endpoints.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser, type FakeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FULL, ms, report, summarize, type BenchRow } from "./lib.js";
import { NO_PG_NOTE, openBenchPg } from "./pg.js";

/** Downlines of the one owner, and owners of the baseline burst (DOWNLINES_MAX is 1,000). */
const BURST = FULL ? 1_000 : 40;
const SEQUENTIAL = FULL ? 100 : 10;
const WARMUP = FULL ? 10 : 5;
const SETTLE_MS = 1_000;
const SECRET = "bench-secret-0123456789";
const CONFIRM = /^✅ Konfirmasi/;
const OWNER = 950_000;
const DOWNLINE0 = 960_000;
const OWNER0 = 970_000;
/** Gold (domain/network.ts DEFAULT_LEVELS). */
const LEVEL = 1;
const FILES_ONLY = process.argv.includes("--files-only");
const DOWNLINES_FIRST = process.argv.includes("--downlines-first");

const arrivals: number[] = [];
const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === "request" && (args[0] as { url?: string }).url?.startsWith(ENDPOINTS.createTransaction)) arrivals.push(performance.now());
  return emit.call(this, event, ...args);
} as typeof Server.prototype.emit;

let targetSeq = 0;
/** A new target each time (a repeat would be asked about first); one in 20 ends in 0000: the sandbox fails it. */
function nextTarget(): string {
  const n = targetSeq++;
  return n % 20 === 19 ? `0813${(10_000 + n).toString()}0000` : `0812${(20_000_001 + n).toString()}`;
}

/** `/beli S10 <target>`: the confirm screen in one update (not timed). */
async function toConfirmScreen(u: FakeUser): Promise<void> {
  await u.sendCommand("beli", `S10 ${nextTarget()}`);
  if (!u.findButton(CONFIRM)) throw new Error(`no confirm screen for ${u.chatId}: ${u.replies().join("\n---\n")}`);
}

async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

interface Side {
  sequential: number[];
  burst: number[];
  presses: number;
  creates: number;
}

interface Checks {
  purchases: number;
  successes: number;
  failed: number;
  open: number;
  debits: number;
  doubleDebits: number;
  wrongDebits: number;
  belowZero: number;
  sumMismatch: number;
  held: number;
  wallets: number;
}

interface Figures {
  owner: Side;
  downline: Side;
  checks: Checks;
  setupMs: number;
  bursts: { owners: Burst; downlines: Burst };
}

/** Create calls per record, split by whose money (a wallet part: a downline's); a press makes one. */
async function createsBySide(app: App): Promise<{ owner: number; downline: number; repeated: number }> {
  const seen = new Map<string, number>();
  for (const c of app.sandbox!.calls(ENDPOINTS.createTransaction)) {
    const ref = c.body.reff_id ?? "";
    seen.set(ref, (seen.get(ref) ?? 0) + 1);
  }
  const out = { owner: 0, downline: 0, repeated: 0 };
  for (const [ref, n] of seen) {
    const tx = await app.store.getTx(ref);
    if (tx?.wallet) out.downline += n;
    else out.owner += n;
    if (n > 1) out.repeated++;
  }
  return out;
}

/** Bot API calls by method while set (429 answers included): what a burst asks of Telegram's budget. */
let telegram: Map<string, number> | undefined;

interface Burst {
  lat: number[];
  seconds: number;
  calls: Map<string, number>;
}

async function burst(users: readonly FakeUser[]): Promise<Burst> {
  await pool(users, 50, toConfirmScreen);
  const before = arrivals.length;
  const calls = (telegram = new Map());
  const t0 = performance.now();
  await Promise.all(users.map((u) => u.pressButton(CONFIRM)));
  telegram = undefined;
  const got = arrivals.slice(before);
  if (got.length !== users.length) throw new Error(`expected ${users.length} create calls, got ${got.length}`);
  return { lat: got.map((t) => t - t0), seconds: (performance.now() - t0) / 1000, calls };
}

async function allTxs(app: App, chat: number): Promise<Readonly<TxRecord>[]> {
  const out: Readonly<TxRecord>[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await app.store.listTxByChat(chat, { offset, limit: 500 });
    out.push(...page.items);
    if (page.items.length < 500) return out;
  }
}

async function allEntries(app: App, chat: number): Promise<WalletEntry[]> {
  const out: WalletEntry[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await app.store.walletEntries(chat, { limit: 500, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
    out.push(...page);
    if (page.length < 500) return out;
    beforeSeq = page[page.length - 1]!.seq;
  }
}

/** Every outcome fetched (the notice left to the caller: nothing sent), then the wallets checked. */
async function settleAndCheck(app: App, downlines: readonly FakeUser[]): Promise<Checks> {
  const purchases = (await allTxs(app, OWNER)).filter((t) => t.wallet !== undefined && t.status !== "draft" && t.status !== "cancel");
  // The last create was made when the burst ended: the sandbox settles each SETTLE_MS after its create.
  await new Promise((r) => setTimeout(r, SETTLE_MS + 500));
  let open = purchases;
  for (let round = 0; round < 5 && open.length > 0; round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, 1_000));
    await pool(open, 20, (t) => app.watcher.checkNow(t.refId, { shownByCaller: true, ...(t.messageId !== undefined ? { pressedMessageId: t.messageId } : {}) }));
    open = (await Promise.all(open.map(async (t) => (await app.store.getTx(t.refId))!))).filter((t) => t.status !== "success" && t.status !== "failed");
  }
  await app.deps.wallets.idle();
  const after = await Promise.all(purchases.map(async (t) => (await app.store.getTx(t.refId))!));
  const success = new Set(after.filter((t) => t.status === "success").map((t) => t.refId));
  const checks: Checks = {
    purchases: after.length,
    successes: success.size,
    failed: after.filter((t) => t.status === "failed").length,
    open: after.filter((t) => t.status !== "success" && t.status !== "failed").length,
    debits: 0,
    doubleDebits: 0,
    wrongDebits: 0,
    belowZero: 0,
    sumMismatch: 0,
    held: 0,
    wallets: downlines.length,
  };
  const debited = new Map<string, number>();
  for (const u of downlines) {
    const entries = await allEntries(app, u.chatId);
    const w = await app.store.wallet(u.chatId);
    for (const e of entries) {
      if (!e.ref.endsWith(":d")) continue;
      const ref = e.ref.slice(0, -2);
      debited.set(ref, (debited.get(ref) ?? 0) + 1);
      checks.debits++;
    }
    if (entries.reduce((s, e) => s + e.amount, 0) !== w.balance) checks.sumMismatch++;
    if (w.balance < 0 || w.balance - w.held < 0) checks.belowZero++;
    checks.held += w.held;
  }
  for (const [ref, n] of debited) {
    if (n > 1) checks.doubleDebits++;
    if (!success.has(ref)) checks.wrongDebits++;
  }
  return checks;
}

async function measure(storeUrl: string | undefined): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-network-"));
  const fake = new FakeBotApi({ strict: false });
  fake.limitRate({ perSecond: 30 });
  fake.setResponder((method) => void telegram?.set(method, (telegram.get(method) ?? 0) + 1));
  const ownerKey = { key: "BENCH-NET-OWNER-KEY", balance: 10_000_000_000 };
  const keys = Array.from({ length: BURST }, (_, i) => ({ key: `BENCH-NET-KEY-${i}`, balance: 1_000_000_000 }));
  const app = await buildApp(
    loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: SECRET, ...(storeUrl ? { STORE_URL: storeUrl } : {}) }),
    silentLogger,
    // Production pacing of the answers (paceAnswers defaults to on), as bench/flood.ts.
    { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, sandbox: { keys: [ownerKey, ...keys], settleMs: SETTLE_MS } },
  );
  const clearFake = setInterval(() => fake.clear(), 1000);
  try {
    const setup0 = performance.now();
    const owner = makeUser(app.bot, fake, { id: OWNER, firstName: "Rina" });
    await app.store.setApiKey(OWNER, ownerKey.key);
    const owners = keys.map((k, i) => makeUser(app.bot, fake, { id: OWNER0 + i }));
    for (const [i, u] of owners.entries()) await app.store.setApiKey(u.chatId, keys[i]!.key);
    // The network through the domain: an invitation each, taken by the downline's chat.
    const { network, wallets } = app.deps;
    const downlines: FakeUser[] = [];
    for (let i = 0; i < BURST; i++) {
      const invite = await network.invite(OWNER, LEVEL);
      if (typeof invite === "string") throw new Error(`no invitation at ${i}: ${invite}`);
      const joined = await network.join(invite.token, { chat: DOWNLINE0 + i, name: `Downline ${i}`, ownsKey: false });
      if (typeof joined === "string") throw new Error(`join refused: ${joined}`);
      downlines.push(makeUser(app.bot, fake, { id: DOWNLINE0 + i, firstName: `Downline ${i}` }));
    }
    const fund = async (chat: number, amount: number, ref: string) => {
      const done = await wallets.adjust({ ref, owner: OWNER, wallet: chat, amount, reason: "bench", by: OWNER });
      if (done.kind !== "posted") throw new Error(`funding ${chat}: ${done.kind}`);
    };
    const seqDownline = downlines[0]!;
    await fund(seqDownline.chatId, 100_000_000, "fund-seq");
    await app.store.flush();
    const setupMs = performance.now() - setup0;

    const pressOne = async (u: FakeUser): Promise<number> => {
      await toConfirmScreen(u);
      const before = arrivals.length;
      const t0 = performance.now();
      await u.pressButton(CONFIRM);
      if (arrivals.length !== before + 1) throw new Error(`expected one create call, got ${arrivals.length - before}`);
      return arrivals[before]! - t0;
    };
    for (let i = 0; i < WARMUP; i++) {
      await pressOne(owner);
      await pressOne(seqDownline);
    }
    // What a downline pays (the level's price of S10): each burst downline gets exactly that.
    const price = (await allTxs(app, OWNER)).find((t) => t.wallet)!.wallet!.price;
    for (const u of downlines.slice(1)) await fund(u.chatId, price, `fund-${u.chatId}`);

    // One at a time, alternating: the network's owner for itself, then its downline.
    const ownerSeq: number[] = [];
    const downSeq: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      ownerSeq.push(await pressOne(owner));
      downSeq.push(await pressOne(seqDownline));
    }

    // The bursts: the owners' first (the downlines' then meets the bigger store), unless --downlines-first.
    // A tenth of the owners first, not measured: the first burst of a process pays for what is cold.
    await burst(owners.slice(0, Math.ceil(BURST / 10)));
    let owners1: Burst;
    let downs1: Burst;
    if (DOWNLINES_FIRST) {
      downs1 = await burst(downlines);
      owners1 = await burst(owners);
    } else {
      owners1 = await burst(owners);
      downs1 = await burst(downlines);
    }
    const checks = await settleAndCheck(app, downlines);
    const made = await createsBySide(app);
    const presses = WARMUP + SEQUENTIAL + BURST;
    return {
      owner: { sequential: ownerSeq, burst: owners1.lat, presses: presses + Math.ceil(BURST / 10), creates: made.owner },
      downline: { sequential: downSeq, burst: downs1.lat, presses, creates: made.downline },
      checks,
      setupMs,
      bursts: { owners: owners1, downlines: downs1 },
    };
  } finally {
    clearInterval(clearFake);
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function perPress(calls: Map<string, number>): string {
  const all = [...calls.values()].reduce((a, b) => a + b, 0);
  return `${(all / BURST).toFixed(2)} (${[...calls].map(([m, n]) => `${m} ${(n / BURST).toFixed(2)}`).join(", ")})`;
}

function rows(label: string, f: Figures): BenchRow[] {
  const os = summarize(f.owner.sequential);
  const ds = summarize(f.downline.sequential);
  const ob = summarize(f.owner.burst);
  const db = summarize(f.downline.burst);
  const c = f.checks;
  const ratio = db.p95 / ob.p95;
  const seqRatio = ds.p95 / os.p95;
  return [
    { metric: `${label}: owners' burst (${BURST} owners, own keys), confirm → create p50 / p95`, value: `${ms(ob.p50)} / ${ms(ob.p95)} (all created in ${f.bursts.owners.seconds.toFixed(1)} s)` },
    { metric: `${label}: downlines' burst (${BURST} downlines of one owner, from wallets), confirm → create p50 / p95`, value: `${ms(db.p50)} / ${ms(db.p95)} (all created in ${f.bursts.downlines.seconds.toFixed(1)} s)` },
    { metric: `${label}: Bot API calls per press in the burst, owners / downlines`, value: `${perPress(f.bursts.owners.calls)} / ${perPress(f.bursts.downlines.calls)}` },
    { metric: `${label}: burst p95, downlines / owners`, value: `${ratio.toFixed(2)}×`, target: "≤ 1.2×", ok: ratio <= 1.2 },
    { metric: `${label}: one press at a time, the owner for itself, p50 / p95`, value: `${ms(os.p50)} / ${ms(os.p95)} (${f.owner.sequential.length} presses)` },
    { metric: `${label}: one press at a time, its downline from its wallet, p50 / p95`, value: `${ms(ds.p50)} / ${ms(ds.p95)} (${f.downline.sequential.length} presses)` },
    { metric: `${label}: one at a time p95, downline / owner`, value: `${seqRatio.toFixed(2)}×`, target: "≤ 1.2×", ok: seqRatio <= 1.2 },
    {
      metric: `${label}: create calls per press, owners / downlines`,
      value: `${(f.owner.creates / f.owner.presses).toFixed(2)} / ${(f.downline.creates / f.downline.presses).toFixed(2)}`,
      target: "1.00",
      ok: f.owner.creates === f.owner.presses && f.downline.creates === f.downline.presses,
    },
    {
      metric: `${label}: downline purchases debited once (\`<ref>:d\` entries / successes)`,
      value: `${c.debits} / ${c.successes} (of ${c.purchases} purchases: ${c.failed} failed, ${c.open} still open; ${c.doubleDebits} debited twice, ${c.wrongDebits} debited without success)`,
      target: "equal, 0, 0",
      ok: c.debits === c.successes && c.doubleDebits === 0 && c.wrongDebits === 0 && c.open === 0,
    },
    { metric: `${label}: wallets below zero / balance ≠ sum of its entries (of ${c.wallets})`, value: `${c.belowZero} / ${c.sumMismatch}`, target: "0 / 0", ok: c.belowZero === 0 && c.sumMismatch === 0 },
    { metric: `${label}: left on hold after every outcome`, value: `Rp${c.held}`, target: "Rp0", ok: c.held === 0 },
    { metric: `${label}: set-up (${BURST} invitations + joins + fundings through the domain)`, value: `${(f.setupMs / 1000).toFixed(1)} s` },
  ];
}

// systemClock's timers are unref'd (they never hold a bot process open): keep this one alive.
const keepAlive = setInterval(() => undefined, 1000);
const files = await measure(undefined);
const pg = FILES_ONLY ? undefined : await openBenchPg();
let pgRows: BenchRow[] = [];
try {
  if (pg) pgRows = rows("PostgreSQL (PgStore)", await measure(await pg.database()));
} finally {
  await pg?.stop();
  clearInterval(keepAlive);
}
report({
  name: "Network",
  setup:
    `Production app (buildApp, built-in sandbox settling in ${SETTLE_MS / 1000} s, system clock) on an in-process fake Bot API answering 429 past 30 messages a second, answers through the shared 29/s pacer; ` +
    `one owner with ${BURST.toLocaleString("en")} Gold downlines (Network.invite + join, Wallets.adjust), and ${BURST.toLocaleString("en")} other owners with keys of their own; Telkomsel 10.000 by \`/beli S10 <target>\` → Konfirmasi, one target in 20 failing; ` +
    `${WARMUP} warm-up purchases each, ${SEQUENTIAL} presses one at a time each (alternating), a tenth of the owners' burst not measured, then the owners' burst, then the downlines'${DOWNLINES_FIRST ? " (--downlines-first: the other way round)" : ""}; file store in a temporary folder` +
    (pg ? `; ${pg.label}` : ""),
  rows: [...rows("file store", files), ...pgRows],
  notes: [
    "Confirm → create: from the press handed to the bot to the sandbox's server receiving the create request. Before the create the press is answered and the confirm screen edited, both through the shared pacer: in a burst every press waits for its two slots of Telegram's budget, so a burst's p95 is mostly that queue, the same for owners and downlines; the downline's own cost (its wallet's hold in the claim's write) shows in the one-at-a-time rows.",
    "After the bursts every purchase's outcome is fetched with watcher.checkNow (no notice sent), then every downline's wallet is read whole: each success has exactly one `<ref>:d` entry, no other record has one, each balance is the sum of its entries, none below zero. The burst downlines were funded with exactly one purchase's price: a success leaves Rp0, a failure the price.",
    ...(pg ? [] : [FILES_ONLY ? "PostgreSQL rows skipped (--files-only)." : NO_PG_NOTE]),
  ],
});
