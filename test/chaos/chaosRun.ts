/**
 * The seeded chaos run: resellers buy, pay bills, transfer and deposit through the real bot (a whole
 * world: chaosWorld.ts) while faults drawn from the seed (schedule.ts) hit the disk, the
 * process, Telegram, the provider and the updates. Afterwards every fault ends, the clock runs until
 * every outcome is in, and the invariants are checked (invariants.ts).
 *
 * Used by the suite (short mode, test/chaos/chaos.test.ts) and by bench/chaos.ts (long mode), so it
 * imports nothing of vitest's that needs its runner. The schedule is the seed's; real I/O (HTTP to the
 * sandbox, the files) decides only the order of what runs at the same clock time.
 */
import { Writable } from "node:stream";
import type { Update } from "grammy/types";
import { createLogger } from "../../src/logging/logger.js";
import { StoreFile } from "../../src/store/file/shards.js";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { BotContext } from "../../src/bot/context.js";
import { startPayment } from "../../src/bot/shop/shopPay.js";
import { apiError, isChatContentMethod, type RecordedCall } from "../support/fakeBotApi.js";
import { makeUser, type FakeUser } from "../support/chat.js";
import { makeChaosWorld, type ChaosWorld } from "./chaosWorld.js";
import { describeEvent, drawSchedule, FAULT_KINDS, type ChaosEvent, type FaultKind } from "./schedule.js";
import { Ledger, STORAGE_DOWN, type ChaosReport as LedgerReport } from "./invariants.js";

/** The ledger's report, and what became of the provider's callbacks. */
export type ChaosReport = LedgerReport & { callbacks: { delivered: number; lost: number; late: number }; drivenClock: number };

/** The resellers' provider key: long and key-shaped, so a leak would be found in the log. */
export const CHAOS_KEY = "CHAOS-Zk9Qm2Lx7Vb4Np8Rt6Wy3Hs5";
const SETTLE_MS = 5_000;
/**
 * The provider client's timeout, in real time (the client has no clock): an injected provider timeout
 * costs this much real time, but below ~2 s a loaded machine's slow sandbox answers count as
 * provider faults too (more failures than injected, and the key's pauses after them).
 */
const UPSTREAM_TIMEOUT_MS = 2_000;
const CONFIRM = /Konfirmasi/;
/** What each downline's wallet starts with: about five S10 purchases at Gold's price. */
const DOWNLINE_FUNDS = 60_000;
/** Real time an update (or a restart) may take before the clock moves for it (driven()). */
const DRIVEN_REAL_MS = 2_000;

export interface ChaosOptions {
  seed: number;
  faults: number;
  users?: number;
  /** Called every `progressEvery` events (long mode). */
  progress?: (done: number, total: number) => void;
  /** PostgreSQL instead of the files: its database, and how to stop it answering and bring it back. */
  postgres?: { url: string; down: () => Promise<void>; up: () => Promise<void> };
  /** The provider client's real-time timeout (default 2 s). */
  upstreamTimeoutMs?: number;
  /** Each event as it starts (replaying a seed). */
  trace?: (line: string) => void;
  /** The app's log at this level too (replaying a seed): each line, with the run clock's time (its own time is real time). */
  log?: { level: "debug" | "info"; line: (line: string, clockMs: number) => void };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fault under way: over once `over` says so (its time is up, or a provider fault was used). */
interface Window {
  kind: FaultKind;
  over: (now: number) => boolean;
  end: () => Promise<void>;
  /** A provider fault: the endpoint whose answers it spoils. */
  spoils?: string;
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const startedReal = Date.now();
  const events = drawSchedule(opts.seed, opts.faults, opts.users ?? 4, opts.postgres ? "postgres" : "files");
  const ledger = new Ledger();
  let runClock = () => 0;
  const sink = new Writable({
    write: (chunk, _enc, done) => {
      ledger.logLine(String(chunk), [CHAOS_KEY]);
      opts.log?.line(String(chunk), runClock());
      done();
    },
  });
  const w: ChaosWorld = await makeChaosWorld({
    upstreamTimeoutMs: opts.upstreamTimeoutMs ?? UPSTREAM_TIMEOUT_MS,
    sandbox: { settleMs: SETTLE_MS, keys: [{ key: CHAOS_KEY, balance: 10_000_000_000_000, name: "chaos" }] },
    logger: createLogger(opts.log?.level ?? "info", sink),
    env: {},
    ...(opts.postgres ? { storeUrl: opts.postgres.url } : {}),
  });
  ledger.startedAt = w.clock.now();
  runClock = () => w.clock.now() - ledger.startedAt;
  const chaos = new Chaos(w, ledger, opts);
  try {
    await chaos.link(opts.users ?? 4);
    let done = 0;
    for (const e of events) {
      opts.trace?.(`${w.clock.now() - ledger.startedAt} ms: ${describeEvent(e)}`);
      await chaos.play(e);
      if (++done % 200 === 0) opts.progress?.(done, events.length);
    }
    await chaos.finish();
    await ledger.check(w, [...chaos.users, ...chaos.customers], w.callbacks.lostRefs);
    await ledger.checkWallets(w, chaos.downlines, chaos.users);
    // The store opens cleanly: a new process on the same data reads every transaction.
    const before = await chaos.allTxCount();
    await chaos.restart();
    const after = await chaos.allTxCount();
    if (before !== after) ledger.violation(`the store reopened with ${after} transactions, ${before} before`);
  } catch (err) {
    ledger.violation(`the run stopped: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } finally {
    chaos.restoreDisk();
    await w.close().catch(() => undefined);
  }
  return { ...ledger.report(opts.seed, events, Date.now() - startedReal, w.clock.now() - chaos.startedAt), callbacks: { ...w.callbacks.counts }, drivenClock: chaos.drivenClock };
}

class Chaos {
  users: FakeUser[] = [];
  /** Each reseller's shop customer (same index): orders and pays QRIS in that reseller's shop. */
  customers: FakeUser[] = [];
  /** Each reseller's downline (same index, docs/wallets.md): every second "buy" of a reseller is its downline's, from its wallet. */
  downlines: FakeUser[] = [];
  private readonly buys = new Map<number, number>();
  readonly startedAt: number;
  /** Resellers' updates being handled (a duplicate's two deliveries overlap). */
  private acting = 0;
  private telegram: Window | undefined;
  private store: Window | undefined;
  private others: Window[] = [];
  private readonly blocked = new Set<number>();
  private readonly realWrite = StoreFile.prototype.write;
  private username = "";
  /** Waits that had to move the clock (driven()). */
  drivenClock = 0;

  constructor(
    private readonly w: ChaosWorld,
    private readonly ledger: Ledger,
    private readonly opts: ChaosOptions,
  ) {
    this.startedAt = w.clock.now();
    const fake = w.fake;
    // Telegram's faults hit what the bot sends in the background (notices, edits): the interactive
    // answers' own retries wait in real time (auto-retry), which a run on the clock cannot afford.
    fake.setResponder((method, payload) => {
      if (!isChatContentMethod(method) && method !== "answerCallbackQuery") return undefined;
      if (this.blocked.has(Number(payload.chat_id))) return apiError(403, "Forbidden: bot was blocked by the user");
      const t = this.telegram;
      if (this.acting > 0 || !t || !isChatContentMethod(method)) return undefined;
      if (t.kind === "telegram-429") return apiError(429, "Too Many Requests: retry after 2", 2);
      if (t.kind === "telegram-5xx") return apiError(502, "Bad Gateway");
      return undefined;
    });
    const lost = fake as unknown as { lostInTransit: (method: string) => object | undefined };
    lost.lostInTransit = (method) => (this.acting === 0 && this.telegram?.kind === "telegram-timeout" && isChatContentMethod(method) ? {} : undefined);
  }

  async link(count: number): Promise<void> {
    for (let i = 0; i < count; i++) this.users.push(await this.w.linkedUser(CHAOS_KEY));
    for (const owner of this.users) {
      const customer = makeUser({ handleUpdate: (update) => this.w.app.bot.handleUpdate(update) }, this.w.fake, { clock: this.w.clock, languageCode: "id" });
      await this.w.store.updateChat(customer.chatId, { customerOf: { owner: owner.chatId, code: `SHOP${owner.chatId}` }, lang: "id" });
      this.customers.push(customer);
    }
    // Each reseller invites a Gold downline, who joins by the link and is funded by hand: a few purchases' worth,
    // so some are refused for a short wallet (docs/wallets.md).
    for (const owner of this.users) {
      const downline = makeUser({ handleUpdate: (update) => this.w.app.bot.handleUpdate(update) }, this.w.fake, { clock: this.w.clock, languageCode: "id" });
      const invite = await this.w.app.deps.network.invite(owner.chatId, 1);
      if (typeof invite === "string") throw new Error(`no downline invited: ${invite}`);
      await downline.sendCommand("start", `dl_${invite.token}`);
      await this.w.app.deps.wallets.adjust({ ref: `CHAOSFUND${downline.chatId}`, owner: owner.chatId, wallet: downline.chatId, amount: DOWNLINE_FUNDS, reason: "chaos", by: owner.chatId });
      this.downlines.push(downline);
    }
    // The forged callbacks need a token and the provider's name for the key, as linking leaves them.
    const { username } = await this.w.upstream.getProfile(CHAOS_KEY);
    this.username = username;
    for (const u of this.users) await this.w.store.updateChat(u.chatId, { providerUsername: username, callbackToken: tokenOf(u) });
    await this.w.store.flush();
  }

  async play(e: ChaosEvent): Promise<void> {
    this.ledger.at(e);
    if (e.type === "wait") await this.advance(e.ms);
    else if (e.type === "act") await this.act(e.user, e.action);
    else await this.fault(e);
    await this.endWindows();
    this.ledger.scan(this.w);
  }

  /**
   * Moves the clock, stopping at every due check and waiting for it as the watcher's tests do; a check
   * that itself waits on the clock (the pacer after a 429) gets a bounded real wait, then time moves on.
   */
  private async advance(ms: number, stepMs = 250): Promise<void> {
    const clock = this.w.clock;
    const end = clock.now() + ms;
    while (clock.now() < end) {
      const real = Date.now();
      await this.idle();
      const due = this.w.watcher.nextWakeAt();
      // A provider call hanging (a timeout fault) ends with the client's real-time timeout: meanwhile the
      // clock moves at real pace, as it does in production, not a step per 50 ms (2 s became 30-45 s).
      const step = this.w.sandbox.hanging() > 0 ? Math.min(stepMs, Math.max(1, Date.now() - real)) : stepMs;
      const to = Math.min(end, clock.now() + step, due !== undefined && due > clock.now() ? due : end);
      await clock.advance(to - clock.now());
      await this.idle();
      await this.endWindows();
      this.ledger.scan(this.w);
    }
  }

  /** The watcher's checks and the provider's callbacks in flight (a callback leads to a check). */
  private idle(): Promise<unknown> {
    const settled = async () => {
      await this.w.callbacks.idle();
      await Promise.all([this.w.watcher.whenIdle(), this.w.app.deps.shopOrderJob.idle()]);
    };
    return Promise.race([settled(), pause(50)]);
  }

  // ---- resellers ------------------------------------------------------------------------------

  private async act(index: number, action: string, twice: "duplicate" | "reorder" | undefined = undefined): Promise<void> {
    const n = action === "buy" ? (this.buys.get(index) ?? 0) + 1 : 0;
    if (action === "buy") this.buys.set(index, n);
    // Every second purchase of a reseller is its downline's (the same flow, paid from its wallet).
    const u = n % 2 === 0 && action === "buy" ? this.downlines[index]! : this.users[index]!;
    if (this.blocked.has(u.chatId)) return; // a reseller who blocked the bot writes nothing
    if (action === "saldo") return void (await this.send(u, u.textUpdate("/saldo")));
    if (action === "riwayat") return void (await this.send(u, u.textUpdate("/riwayat")));
    if (action === "pay") return this.pay(u);
    if (action === "order") return this.order(index);
    if (action === "payorder") return this.payOrder(index);
    const steps = FLOWS[action]!;
    for (const step of steps) {
      const ok = typeof step === "string" ? await this.send(u, u.textUpdate(step)) : await this.press(u, step);
      if (!ok) return; // the flow met a fault's answer: the reseller tries something else later
    }
    await this.confirm(u, twice);
  }

  /** The Confirm press: as Telegram sends it, twice (a duplicate), or after a later update (reordered). */
  private async confirm(u: FakeUser, twice: "duplicate" | "reorder" | undefined): Promise<void> {
    if (!u.findButton(CONFIRM)) return;
    if (twice === "reorder") {
      const earlier = u.textUpdate("/saldo");
      const press = u.callbackUpdate(CONFIRM);
      await this.send(u, press);
      await this.send(u, earlier);
      return;
    }
    const press = u.callbackUpdate(CONFIRM);
    if (twice === "duplicate") {
      const [a, b] = await Promise.all([this.deliver(u, press), this.deliver(u, structuredClone(press))]);
      this.ledger.answered(press, [...a, ...b], (c) => this.w.fake.textOf(c));
      return;
    }
    await this.send(u, press);
  }

  private async press(u: FakeUser, label: RegExp): Promise<boolean> {
    if (!u.findButton(label)) return false;
    return this.send(u, u.callbackUpdate(label));
  }

  /** One update, and whether the flow may go on (the answer was not about a fault). */
  private async send(u: FakeUser, update: Update): Promise<boolean> {
    const calls = await this.deliver(u, update);
    this.ledger.answered(update, calls, (c) => this.w.fake.textOf(c));
    return calls.some((c) => c.response?.ok === true && isChatContentMethod(c.method));
  }

  private async deliver(u: FakeUser, update: Update): Promise<RecordedCall[]> {
    this.acting++;
    try {
      return await this.driven(u.deliver(update));
    } finally {
      this.acting--;
    }
  }

  /**
   * The process stops and a new one starts on the same data. Stopping waits for the checks in flight,
   * and one may be waiting on the clock (the pacer after a 429, the store's retry): time moves meanwhile.
   */
  async restart(): Promise<void> {
    await this.driven(this.w.restart());
  }

  /**
   * Waits for work that may need the clock (PostgreSQL's unreachable gate answers on it): real time
   * first, long enough for CPU-bound work on a loaded machine (a QRIS picture takes a second or more),
   * which would otherwise run the clock a minute ahead of the checks and callbacks it stands for.
   */
  private async driven<T>(p: Promise<T>): Promise<T> {
    let done = false;
    void p.finally(() => (done = true)).catch(() => undefined);
    const realUntil = Date.now() + DRIVEN_REAL_MS;
    while (!done && Date.now() < realUntil) await pause(2);
    for (let i = 0; i < 3_000 && !done; i++) {
      if (i === 0) this.drivenClock++;
      await pause(1);
      // A hanging provider call (a create that timed out) is waited for at real pace (advance()).
      await this.w.clock.advance(this.w.sandbox.hanging() > 0 ? 1 : 50);
    }
    return p;
  }

  private async pay(u: FakeUser): Promise<void> {
    const open = await this.w.store.listTxByChat(u.chatId, { limit: 20 }).catch(() => undefined);
    // Pending at the provider too (the store may not have heard of a payment yet).
    const atProvider = (id: string) => (this.w.sandbox.transaction(id) as { status?: string } | undefined)?.status;
    const deposit = open?.items.find((t) => t.kind === "deposit" && t.upstreamId && atProvider(t.upstreamId) === "pending");
    if (!deposit) return;
    this.w.sandbox.payDeposit(deposit.upstreamId!);
    this.ledger.outcomeAt(deposit.refId, this.w.clock.now());
  }

  /**
   * The catalogue's "Bayar dengan QRIS" in the customer's chat (as test/shop does): a PLN 20.000 token
   * for the customer's meter, the deposit made with the reseller's key. A storage fault may refuse it
   * (the bot's handler answers with the storage words); anything else thrown is a violation.
   */
  private async order(index: number): Promise<void> {
    const owner = this.users[index]!;
    const customer = this.customers[index]!;
    const api = this.w.app.bot.api;
    const chatId = customer.chatId;
    const ctx = {
      deps: this.w.app.deps,
      lang: "id",
      chat: { id: chatId, type: "private" },
      reply: (text: string, other?: object) => api.sendMessage(chatId, text, other),
      replyWithPhoto: (photo: never, other?: object) => api.sendPhoto(chatId, photo, other),
    } as unknown as BotContext;
    const input = { owner: owner.chatId, customer: chatId, customerName: "Sari", productCode: "PLN20", productName: "PLN 20.000", target: "12345678901", price: 21_000, cost: 20_113, fee: 147, feePayer: "customer", lang: "id" } as const;
    this.acting++;
    try {
      await this.driven(startPayment(ctx, input));
    } catch (err) {
      const what = err instanceof Error ? (err.stack ?? err.message) : String(err);
      if (!STORAGE_DOWN.test(what)) this.ledger.violation(`a shop order for reseller ${index} threw: ${what.slice(0, 400)}`);
    } finally {
      this.acting--;
    }
  }

  /** The customer pays the oldest QR of theirs the provider still holds pending (some are paid late, some never). */
  private async payOrder(index: number): Promise<void> {
    const owner = this.users[index]!;
    const customer = this.customers[index]!;
    const orders = await this.w.app.deps.shopOrders.listByCustomer(owner.chatId, customer.chatId).catch(() => []);
    for (const doc of orders.sort((a, b) => a.id.localeCompare(b.id))) {
      const rec = this.w.sandbox.transaction(doc.value.depositRef) as { id?: string; status?: string } | undefined;
      if (rec?.status !== "pending" || !rec.id) continue;
      this.w.sandbox.payDeposit(rec.id);
      this.ledger.orderPaid(doc.id, this.w.clock.now());
      return;
    }
  }

  // ---- faults ---------------------------------------------------------------------------------

  private async fault(e: Extract<ChaosEvent, { type: "fault" }>): Promise<void> {
    const now = this.w.clock.now();
    const until = now + e.lastsMs;
    const window = (end: () => Promise<void> = async () => {}): Window => ({ kind: e.kind, over: (t) => t >= until, end });
    switch (e.kind) {
      case "disk-full":
      case "read-only": {
        if (this.store) return; // one disk fault at a time
        const code = e.kind === "disk-full" ? "ENOSPC" : "EROFS";
        StoreFile.prototype.write = () => Promise.reject(Object.assign(new Error(`${code}: write failed`), { code }));
        this.store = window(() => this.repairDisk());
        break;
      }
      case "postgres-down": {
        const pg = this.opts.postgres;
        if (this.store || !pg) return; // the file store has none (schedule.ts draws it only for PostgreSQL)
        await pg.down();
        this.store = window(async () => {
          await pg.up();
          await this.storeBack();
        });
        break;
      }
      case "restart": {
        if (this.store) return; // a start on a failing disk is another test's (dataLock, storage words)
        await this.restart();
        this.ledger.faultEnded(now, e.kind);
        break;
      }
      case "telegram-429":
      case "telegram-5xx":
      case "telegram-timeout":
        if (this.telegram) return;
        this.telegram = window();
        break;
      case "telegram-403": {
        const u = this.users[e.user]!;
        if (this.blocked.has(u.chatId)) return;
        this.blocked.add(u.chatId);
        // Unblocked: the reseller writes again, which brings the notices it missed.
        this.others.push(window(async () => {
          this.blocked.delete(u.chatId);
          await this.send(u, u.textUpdate("/saldo"));
        }));
        break;
      }
      case "provider-timeout":
      case "provider-5xx":
      case "provider-html":
      case "provider-malformed": {
        const kind = ({ "provider-timeout": "timeout", "provider-5xx": "html502", "provider-html": "html200", "provider-malformed": "malformed" } as const)[e.kind];
        const times = 1 + (e.lastsMs % 3);
        // Spoiled answers queued by an earlier fault on this endpoint come first.
        const spoiledAt = this.w.sandbox.calls(e.endpoint).length + this.w.sandbox.faultsQueued(e.endpoint) + times;
        this.w.sandbox.fault(e.endpoint, kind, times);
        // Over once the endpoint has taken every answer it spoils, and no call it holds still hangs (a
        // timeout's fault ends when its client gives up: only then can the bot know).
        const used = () => this.w.sandbox.calls(e.endpoint).length >= spoiledAt;
        this.others.push({ kind: e.kind, over: () => used() && this.w.sandbox.hanging(e.endpoint) === 0, end: async () => {}, spoils: e.endpoint });
        break;
      }
      case "provider-late": {
        // Over when its time is up, or once the call it holds has been given up by its client (as a
        // timeout's fault: from then on the bot's calls are answered, and only then can it know).
        const heldAt = this.w.sandbox.calls(e.endpoint).length + this.w.sandbox.holdsQueued(e.endpoint) + 1;
        const release = this.w.sandbox.holdNext(e.endpoint);
        const givenUp = () => this.w.sandbox.calls(e.endpoint).length >= heldAt && this.w.sandbox.hanging(e.endpoint) === 0;
        const timed = window(async () => release());
        this.others.push({ ...timed, over: (now) => timed.over(now) || givenUp() });
        break;
      }
      case "callback-lost":
      case "callback-late": {
        // The provider's callbacks sent meanwhile never come, or come when the fault ends.
        if (this.w.callbacks.fault) return;
        this.w.callbacks.fault = e.kind === "callback-lost" ? "lost" : "late";
        this.others.push(window(async () => {
          this.w.callbacks.fault = undefined;
          this.w.callbacks.release();
        }));
        break;
      }
      case "duplicate-update":
      case "reordered-updates":
        await this.act(e.user, "buy", e.kind === "duplicate-update" ? "duplicate" : "reorder");
        this.ledger.faultEnded(this.w.clock.now(), e.kind);
        break;
      case "forged-callback":
        await this.forge(this.users[e.user]!, e.lastsMs % 2 === 0);
        this.ledger.faultEnded(this.w.clock.now(), e.kind);
        break;
    }
    this.ledger.fault(e.kind);
  }

  /**
   * A callback nobody at the provider sent: a wrong signature (refused), or a right one claiming a
   * success the status endpoint does not confirm (only the status answer may change anything).
   */
  private async forge(u: FakeUser, signed: boolean): Promise<void> {
    const http = this.w.app.http();
    if (!http) return;
    const open = await this.w.store.listTxByChat(u.chatId, { limit: 5 }).catch(() => undefined);
    const tx = open?.items.find((t) => t.upstreamId) ?? open?.items[0];
    const signature = callbackSignature(signed ? this.username : "someone_else");
    const body = { event: "transaksi", status: "success", data: { id: tx?.upstreamId ?? "X1", reff_id: tx?.refId ?? "TPX", price: "1", status: "success", sn: "FORGED" } };
    // The route reads the store: on PostgreSQL while it is down, its answer waits on the clock.
    await this.driven(
      fetch(`${http.url}/provider/${tokenOf(u)}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-atl-signature": signature },
        body: JSON.stringify(body),
      }).then((r) => r.arrayBuffer()),
    );
  }

  /** Ends every fault whose time is up (a provider fault: once used). */
  private async endWindows(): Promise<void> {
    const now = this.w.clock.now();
    if (this.telegram?.over(now)) {
      this.ledger.faultEnded(now, this.telegram.kind);
      this.telegram = undefined;
    }
    // A fault ends when it is lifted (the disk writes, the chat unblocks), not once the bot has noticed:
    // the clock that moves while the store's retries find the disk back is the bot's wait, and a notice
    // sent meanwhile counted from the outcome (as if no fault had delayed it: 10.3 s "none" in the run).
    if (this.store?.over(now)) {
      const s = this.store;
      this.store = undefined;
      const endedAt = this.w.clock.now();
      await s.end();
      this.ledger.faultEnded(endedAt, s.kind);
    }
    const due = this.others.filter((o) => o.over(now));
    this.others = this.others.filter((o) => !o.over(now));
    for (const o of due) {
      const endedAt = this.w.clock.now();
      await o.end();
      this.ledger.faultEnded(endedAt, o.kind);
    }
  }

  restoreDisk(): void {
    StoreFile.prototype.write = this.realWrite;
  }

  /** The disk works again; the store's own retries (on the clock) write what waited. */
  private async repairDisk(): Promise<void> {
    this.restoreDisk();
    await this.storeBack();
  }

  /** Moves the clock until the store saves again and this process leads again (PostgreSQL: the lead went with it). */
  private async storeBack(): Promise<void> {
    const back = () => this.w.store.canPersist() && this.w.app.shared.leadership().isLeader();
    for (let i = 0; i < 600 && !back(); i++) {
      await pause(1);
      await this.advance(250);
    }
    if (!back()) this.ledger.violation("the store did not save again (or the lead did not come back) after the fault ended");
  }

  /** Every fault ends; the resellers write once more; the clock runs until every outcome is in. */
  async finish(): Promise<void> {
    // A provider fault's spoiled answers still queued are dropped (else the bot would meet them after
    // "every fault ended"); one whose call still hangs ends when its client gives up.
    for (const o of this.others) if (o.spoils !== undefined) this.w.sandbox.clearFaults(o.spoils);
    for (const o of [this.telegram, this.store, ...this.others]) {
      if (!o) continue;
      const endpoint = o.spoils;
      o.over = endpoint === undefined ? () => true : () => this.w.sandbox.hanging(endpoint) === 0;
    }
    await this.endWindows();
    for (const u of this.users) await this.send(u, u.textUpdate("/saldo"));
    // Deposits nobody paid expire (QRIS: 30 min); the watcher's longest wait is 5 min.
    // No fault left: longer steps (still stopping at every due check).
    for (let i = 0; i < 12; i++) await this.advance(10 * 60_000, 5_000);
    this.ledger.scan(this.w);
  }

  async allTxCount(): Promise<number> {
    let n = 0;
    for (const u of this.users) n += (await this.w.store.listTxByChat(u.chatId, { limit: 1 })).total;
    return n;
  }
}

/** The flows up to their confirm screen: a command or text, or a button to press. */
const FLOWS: Record<string, (string | RegExp)[]> = {
  buy: ["/beli S10 081234567890"],
  bill: ["/tagihan", /^PLN Pascabayar$/, SANDBOX_CUSTOMERS.oneSheet],
  transfer: ["/transfer", "bca", /BCA/, "1234567890", "10000", /Lewati/],
  deposit: ["/deposit", "qris", /^QRIS Fast/, "50rb"],
};

function tokenOf(u: FakeUser): string {
  return `chaos${u.chatId}abcdefghijklmnopqrstu`;
}

export { FAULT_KINDS, describeEvent };
