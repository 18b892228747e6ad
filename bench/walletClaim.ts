/**
 * The claim alone on PgStore (issue 37): a downline's `draft -> sending` with its wallet part moved to
 * `held` (docs/wallets.md rule 1) beside an owner's `draft -> sending` with no wallet part, in the
 * same run, the store called directly (no bot, no provider). Reports each one's round trips to the
 * server (socket writes of the driver, which batches a turn's queries into one) and latency, one at a
 * time and in bursts; a burst's downline claims each hold from their own wallet, as bench/network.ts's
 * downlines do. `node --import tsx bench/walletClaim.ts` (`--full`: more samples).
 */
import { Socket } from "node:net";
import type { NewTx, Store } from "../src/store/api.js";
import { PgStore } from "../src/store/pg/pgStore.js";
import { FULL, ms, report, summarize, type BenchRow } from "./lib.js";
import { NO_PG_NOTE, openBenchPg } from "./pg.js";

const SEQUENTIAL = FULL ? 1_000 : 200;
const BURST = FULL ? 200 : 50;
const BURSTS = FULL ? 10 : 4;
const OWNER = 100;
const DOWNLINE0 = 10_000;
const PRICE = 10_500;

let writes = 0;
const write = Socket.prototype.write as (...a: unknown[]) => boolean;
Socket.prototype.write = function (this: Socket, ...a: unknown[]) {
  writes++;
  return write.apply(this, a);
} as typeof Socket.prototype.write;

let seq = 0;
function draft(downline: number | undefined): NewTx {
  const refId = `C${(seq++).toString()}`;
  return {
    refId,
    chatId: OWNER,
    by: downline ?? OWNER,
    kind: "prepaid",
    status: "draft",
    amount: 9_000,
    code: "S10",
    target: "0812",
    ...(downline === undefined ? {} : { wallet: { chat: downline, price: PRICE, state: "draft" as const } }),
  };
}

/** The confirm engine's claim: the draft read, then draft -> sending (holding its price when it has a wallet part). */
async function claim(s: Store, refId: string): Promise<void> {
  const tx = (await s.getTx(refId))!;
  const patch = tx.wallet ? { status: "sending" as const, wallet: { ...tx.wallet, state: "held" as const } } : { status: "sending" as const };
  const out = await s.transitionTx(refId, ["draft"], patch);
  if (!out) throw new Error(`${refId} was not claimed`);
}

async function timed(s: Store, refId: string): Promise<number> {
  const t0 = performance.now();
  await claim(s, refId);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const pg = await openBenchPg();
  if (!pg) {
    report({ name: "walletClaim", setup: "", rows: [], notes: [NO_PG_NOTE] });
    return;
  }
  const s = await PgStore.open({ url: await pg.database(), secret: "bench-secret-0123456789" });
  const rows: BenchRow[] = [];
  try {
    const downlines = Array.from({ length: BURST }, (_, i) => DOWNLINE0 + i);
    await s.postEntries(downlines.map((d) => ({ ref: `fund${d.toString()}`, wallet: d, owner: OWNER, amount: PRICE * (SEQUENTIAL + BURSTS + 20), kind: "adjust" as const, reason: "bench", by: OWNER })));

    // Round trips of one claim each (the draft read included), after a warm-up.
    const trips = { owner: 0, downline: 0 };
    for (const who of ["owner", "downline"] as const) {
      for (let i = 0; i < 6; i++) {
        const t = draft(who === "owner" ? undefined : DOWNLINE0);
        await s.createTx(t);
        const before = writes;
        await claim(s, t.refId);
        trips[who] = writes - before;
      }
    }
    rows.push({ metric: "round trips of a claim, owner (draft read + draft -> sending)", value: String(trips.owner) });
    rows.push({ metric: "round trips of a claim, downline (the same, holding from its wallet)", value: String(trips.downline) });

    // One at a time, owner and downline interleaved so both see the same machine.
    const seqTimes = { owner: [] as number[], downline: [] as number[] };
    for (let i = 0; i < SEQUENTIAL; i++) {
      const o = draft(undefined);
      const d = draft(DOWNLINE0);
      await s.createTx(o);
      await s.createTx(d);
      seqTimes.owner.push(await timed(s, o.refId));
      seqTimes.downline.push(await timed(s, d.refId));
    }
    // Bursts: BURST claims at once, each downline from its own wallet; owners' bursts alternate with them.
    const burstTimes = { owner: [] as number[], downline: [] as number[] };
    for (let b = 0; b < BURSTS; b++) {
      for (const who of ["owner", "downline"] as const) {
        const ts = downlines.map((d) => draft(who === "owner" ? undefined : d));
        for (const t of ts) await s.createTx(t);
        burstTimes[who].push(...(await Promise.all(ts.map((t) => timed(s, t.refId)))));
      }
    }
    for (const [label, times] of [
      ["one at a time", seqTimes],
      [`bursts of ${BURST.toString()}`, burstTimes],
    ] as const) {
      const o = summarize(times.owner);
      const d = summarize(times.downline);
      rows.push({ metric: `claim ${label}, owner p50 / p95`, value: `${ms(o.p50)} / ${ms(o.p95)}` });
      rows.push({ metric: `claim ${label}, downline p50 / p95`, value: `${ms(d.p50)} / ${ms(d.p95)}` });
      rows.push({ metric: `claim ${label}, downline / owner p95`, value: `${(d.p95 / o.p95).toFixed(2)}x` });
    }
    const held = await s.wallet(DOWNLINE0);
    if (held.held !== PRICE * (SEQUENTIAL + 6 + BURSTS)) throw new Error(`held ${held.held.toString()}, not the claims' sum`);
  } finally {
    await s.close();
    await pg.stop();
  }
  report({ name: "walletClaim", setup: `${pg.label}; pool of 10; ${SEQUENTIAL.toString()} claims one at a time each, ${BURSTS.toString()} bursts of ${BURST.toString()} each`, rows });
}

await main();
