/**
 * /mutasi: a downline's wallet entries, newest first, 10 a page (bot/features/downline.ts). The issue's
 * figure is a page's p99 for 1,000 downlines with a year of entries, 50 a day (18.25 million entries):
 * on PostgreSQL (mutasiPg.ts: generated inside the database, checked through PgStore, then pages at
 * random wallets and depths through PgStore.walletEntries, the call the bot makes), and once through
 * the bot's own handler: `/mutasi` and its "more" button for downlines joined through the domain, on
 * that database (the production app, fake Bot API in-process, answers unpaced).
 *
 * The file store keeps every entry in memory (store/file/wallets.ts): it is measured at a size that
 * fits, `wallets.jsonl` written straight (the lines it appends), in a child process of its own for a
 * clean memory figure: open time, resident memory per entry, and pages at random depths.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { FileStore } from "../src/store/file/fileStore.js";
import { WALLETS_FILE } from "../src/store/file/wallets.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FULL, mb, ms, report, summarize, type BenchRow } from "./lib.js";
import { DAY, DAYS, entryOf, OWNER, seeded, WALLET0, walletEnd, type Size } from "./mutasiData.js";
import { measurePg, PAGE } from "./mutasiPg.js";
import { NO_PG_NOTE, openBenchPg } from "./pg.js";

const SECRET = "bench-secret-0123456789";
/** The issue's size on PostgreSQL in full mode; a year of 100 downlines at 10 a day in quick mode. */
const PG_SIZE: Size = FULL ? { downlines: 1_000, perDay: 50 } : { downlines: 100, perDay: 10 };
/** The file store: every entry in memory, so a size that fits. */
const FILE_SIZE: Size = FULL ? { downlines: 1_000, perDay: 5 } : { downlines: 100, perDay: 5 };
const variant = process.argv.find((a) => a.startsWith("--variant="))?.slice(10);
const HANDLER_CHATS = 20;

/** The file store at `size`: written straight, opened, paged. Runs in its own process (--variant=files). */
async function measureFiles(size: Size): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-mutasi-"));
  try {
    const start = Date.now() - DAYS * DAY;
    const store0 = await FileStore.open({ dir, secret: SECRET });
    await store0.close();
    const root = join(dir, "store");
    mkdirSync(root, { recursive: true });
    // Streamed, a wallet's year at a time: the memory figure below is the store's, not the generator's.
    const fd = openSync(join(root, WALLETS_FILE), "w", 0o600);
    let n = 0;
    for (let w = 0; w < size.downlines; w++) {
      const lines: string[] = [];
      for (let d = 0; d < DAYS; d++) for (let i = 0; i < size.perDay; i++) lines.push(`${JSON.stringify(entryOf(w, d, i, start, size.perDay))}\n`);
      writeSync(fd, lines.join(""));
      n += lines.length;
    }
    closeSync(fd);
    global.gc?.();
    const mem0 = process.memoryUsage();
    const t0 = performance.now();
    const store = await FileStore.open({ dir, secret: SECRET });
    const openMs = performance.now() - t0;
    global.gc?.();
    const mem = process.memoryUsage();
    const end = walletEnd(size.perDay);
    const check = await store.wallet(WALLET0 + size.downlines - 1);
    if (check.balance !== end.balance) throw new Error(`file store wallet balance ${check.balance}, expected ${end.balance}`);
    const rand = seeded();
    const lat: number[] = [];
    for (let k = 0; k < 2_000; k++) {
      const wallet = WALLET0 + Math.floor(rand() * size.downlines);
      const beforeSeq = k % 4 === 0 ? undefined : 2 + Math.floor(rand() * end.lastSeq);
      const t = performance.now();
      const page = await store.walletEntries(wallet, { limit: PAGE, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
      lat.push(performance.now() - t);
      if (page[0]?.seq !== (beforeSeq ?? end.lastSeq + 1) - 1) throw new Error(`wrong page for ${wallet} before ${beforeSeq}`);
    }
    await store.close();
    const p = summarize(lat);
    const perEntry = (mem.rss - mem0.rss) / n;
    const label = `file store, ${size.downlines.toLocaleString("en")} downlines × ${size.perDay} a day (${n.toLocaleString("en")} entries)`;
    return [
      { metric: `${label}: open (Store.open, every entry read into memory)`, value: `${ms(openMs)} (${((openMs * 1000) / n).toFixed(1)} µs an entry)` },
      { metric: `${label}: resident memory growth at open, per entry (heap growth per entry)`, value: `${mb(mem.rss - mem0.rss)}, ${Math.round(perEntry)} B (${Math.round((mem.heapUsed - mem0.heapUsed) / n)} B)` },
      { metric: `${label}: /mutasi page (walletEntries, ${PAGE}), first or at a random depth, p50 / p99`, value: `${ms(p.p50)} / ${ms(p.p99)}`, target: "p99 ≤ 10 ms", ok: p.p99 <= 10 },
      { metric: "BYTES_PER_ENTRY", value: String(Math.round(perEntry)) },
      { metric: "OPEN_US_PER_ENTRY", value: ((openMs * 1000) / n).toFixed(1) },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `/mutasi` and its "more" button through the production app on the loaded database. */
async function measureHandler(url: string, size: Size): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-mutasi-app-"));
  const fake = new FakeBotApi({ strict: false });
  const app = await buildApp(
    loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: SECRET, STORE_URL: url }),
    silentLogger,
    { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, paceAnswers: false },
  );
  try {
    await app.store.setApiKey(OWNER, app.sandbox!.demoKey);
    const users = [];
    for (let k = 0; k < HANDLER_CHATS; k++) {
      const chat = WALLET0 + Math.floor((k * size.downlines) / HANDLER_CHATS);
      const invite = await app.deps.network.invite(OWNER, 1);
      if (typeof invite === "string") throw new Error(`no invitation: ${invite}`);
      const joined = await app.deps.network.join(invite.token, { chat, name: `Downline ${k}`, ownsKey: false });
      if (typeof joined === "string") throw new Error(`join refused: ${joined}`);
      users.push(makeUser(app.bot, fake, { id: chat }));
    }
    const first: number[] = [];
    const more: number[] = [];
    const clear = setInterval(() => fake.clear(), 1000);
    try {
      for (let round = 0; round < 5; round++) {
        for (const u of users) {
          let t = performance.now();
          await u.sendCommand("mutasi");
          first.push(performance.now() - t);
          for (let p = 0; p < 2; p++) {
            t = performance.now();
            await u.pressButton(/^⬇️ /);
            more.push(performance.now() - t);
          }
        }
      }
    } finally {
      clearInterval(clear);
    }
    const f = summarize(first);
    const m = summarize(more);
    return [
      { metric: `PostgreSQL, through the bot: /mutasi (the update handled, reply in the fake Bot API), p50 / p99`, value: `${ms(f.p50)} / ${ms(f.p99)} (${first.length} commands)` },
      { metric: `PostgreSQL, through the bot: the page-back button, p50 / p99`, value: `${ms(m.p50)} / ${ms(m.p99)} (${more.length} presses)` },
    ];
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (variant === "files") {
  process.stdout.write(`ROWS ${JSON.stringify(await measureFiles(JSON.parse(process.argv.find((a) => a.startsWith("--size="))!.slice(7)) as Size))}\n`);
} else {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", import.meta.filename, "--variant=files", `--size=${JSON.stringify(FILE_SIZE)}`], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  const fileRows = JSON.parse(out.split("\n").find((l) => l.startsWith("ROWS "))!.slice(5)) as BenchRow[];
  const hidden = (name: string) => Number(fileRows.find((r) => r.metric === name)!.value);
  const bytes = hidden("BYTES_PER_ENTRY");
  const openUs = hidden("OPEN_US_PER_ENTRY");
  const pg = process.argv.includes("--files-only") ? undefined : await openBenchPg();
  let pgRows: BenchRow[] = [];
  let pgNotes: string[] = [];
  let n = 0;
  try {
    if (pg) {
      const loaded = await measurePg(pg, PG_SIZE, SECRET);
      n = loaded.n;
      pgRows = [...loaded.rows, ...(await measureHandler(loaded.url, PG_SIZE))];
      pgNotes = loaded.notes;
    }
  } finally {
    await pg?.stop();
  }
  const issue = 1_000 * 50 * DAYS;
  const perGb = Math.floor(2 ** 30 / bytes);
  report({
    name: "Wallet statement (/mutasi)",
    setup:
      `A year of wallet entries (the first of each day the owner's cash by hand, the rest purchases, running balance as posted); ` +
      (pg ? `PostgreSQL: ${PG_SIZE.downlines.toLocaleString("en")} downlines × ${PG_SIZE.perDay} a day × ${DAYS} days = ${n.toLocaleString("en")} entries, ${pg.label}; ` : "") +
      `file store: ${FILE_SIZE.downlines.toLocaleString("en")} downlines × ${FILE_SIZE.perDay} a day, in a process of its own`,
    rows: [...fileRows.filter((r) => !/^[A-Z_]+$/.test(r.metric)), ...pgRows],
    notes: [
      `The file store keeps every wallet entry in memory and reads them all at open (here about ${bytes} B and ${openUs} µs an entry): a million entries (1,000 downlines × about 3 a day for a year, or 100 × 30) take about ${((1e6 * bytes) / 2 ** 20).toFixed(0)} MB and ${(openUs).toFixed(0)} s of every start; 1 GB holds about ${perGb.toLocaleString("en")} entries; the issue's ${issue.toLocaleString("en")} would take about ${((issue * bytes) / 2 ** 30).toFixed(1)} GB and ${((issue * openUs) / 1e6 / 60).toFixed(0)} min to open. A network past about a million entries should run on PostgreSQL (STORE_URL), where a page reads 10 rows of an index whatever the size and nothing is read at start.`,
      "Through the bot: the production app on the loaded database, downlines joined through Network.invite + join; /mutasi then 2 presses of its page-back button, 5 rounds, the time from the update handed to the bot until the handler finished (the reply sent to the in-process fake Bot API, answers unpaced).",
      ...(pg ? pgNotes : [process.argv.includes("--files-only") ? "PostgreSQL rows skipped (--files-only)." : NO_PG_NOTE]),
    ],
  });
}
