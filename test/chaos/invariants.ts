/**
 * What the chaos run watches and checks afterwards:
 * - no create twice for one confirmation (the sandbox records every create with its reference);
 * - every outcome the provider holds is told to its chat exactly once (a notice message naming the
 *   reference; when a notice's delivery was uncertain the protocol edits the original message
 *   instead of risking a second notice, and that edit counts as told), and the store agrees with it;
 * - no answer lost (every update a reseller sent got an answer; of a duplicate, one of the two);
 * - no handler error and no api key (nor the bot token) in the log;
 * - every shop order whose QRIS the provider holds as paid ends `done` with exactly one successful
 *   purchase, or failed / in its refund, never left paid, buying or awaiting payment; no order bought twice;
 * - how long a reseller waited for news after the fault that delayed it ended (clock time); an
 *   outcome whose provider callback was lost is counted apart: no fault end the bot could see says
 *   it changed, so its news waits for the item's next poll.
 */
import type { Update } from "grammy/types";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { isChatContentMethod, type RecordedCall } from "../support/fakeBotApi.js";
import type { FakeUser } from "../support/chat.js";
import type { ChaosWorld } from "./chaosWorld.js";
import type { TxRecord } from "../../src/store/index.js";
import { ORDER_STATES, orderRefOfTx, purchaseRefOf, type OrderDoc } from "../../src/domain/shop/orders.js";
import { describeEvent, FAULT_KINDS, type ChaosEvent, type FaultKind } from "./schedule.js";

export interface ChaosReport {
  seed: number;
  faults: Record<FaultKind, number>;
  faultTotal: number;
  violations: string[];
  /** Clock ms from the end of the fault that delayed it (or from the outcome, when none did) to the news. */
  longestWaitMs: number;
  longestWaitRef: string | undefined;
  /** Where the longest wait came from. */
  longestWaitWhy: string;
  /** The longest wait after each kind of fault that ended last before the news ("none": no fault after the outcome; "callback-lost": its callback was lost). */
  waitsByKind: Record<string, number>;
  /** The longest wait for news of an outcome whose callback was lost (from the outcome or the last fault's end), apart from longestWaitMs. */
  lostCallbackWaitMs: number;
  lostCallbackWaitWhy: string;
  /** Outcomes told by the transaction's own message only (the answer to Confirm, or an edit after an uncertain notice). */
  shownOnly: string[];
  /** Handler errors a storage fault caused, answered with the storage words. */
  storageErrors: number;
  updates: number;
  transactions: number;
  notices: number;
  /**
   * Shop orders made, whose QRIS the provider holds as paid, and of those done; `ends`: the paid ones by
   * their end state (and a failure's reason, e.g. "failed:not_at_provider").
   */
  orders: { total: number; paid: number; done: number; ends: Record<string, number> };
  /** Downlines' purchases that succeeded, each checked as debited once from its wallet. */
  walletPurchases: number;
  clockMs: number;
  realMs: number;
  events: ChaosEvent[];
}

const REF = /\b[A-Z]{2}\d{6}[0-9A-Z]{8}\b/g;
/** A notice of an outcome (locales: watch-success, watch-failed, watch-deposit-*). */
const OUTCOME_NOTICE = /Transaksi berhasil|Transaksi gagal|Deposit masuk|Deposit gagal|Deposit kedaluwarsa|Deposit dibatalkan/;
/** The transaction's own message showing a final outcome (receipt status line, deposit caption). */
const OUTCOME_SHOWN = /Berhasil|Gagal|LUNAS|GAGAL|Kedaluwarsa|KEDALUWARSA|Dibatalkan|DIBATALKAN/;
/** The generic apology (locales: error-generic). */
const GENERIC = /terjadi kesalahan|something went wrong/;
/** Storage refusing: the disk, or the database refusing connections or dropping them. */
export const STORAGE_DOWN = /ENOSPC|EROFS|DatabaseUnreachableError|not currently accepting connections|ECONNREFUSED|ECONNRESET|CONNECTION_(ENDED|CLOSED|DESTROYED)|terminating connection/;
const FINAL = new Set(["success", "failed", "expired", "cancel"]);
/** A record whose outcome is not known yet: its wallet hold stays (docs/wallets.md). */
const OPEN = new Set(["sending", "pending", "processing", "unknown"]);
const CREATES: [path: string, field: string][] = [
  ["/transaksi/create", "reff_id"],
  ["/transaksi/tagihan/bayar", "reff_id"],
  ["/transfer/create", "ref_id"],
  ["/deposit/create", "reff_id"],
];
const SETTLE_MS = 5_000;
const STATUS_PATHS = ["/transaksi/status", "/transfer/status", "/deposit/status"];
/** Where an order whose QRIS was paid may end: fulfilled, or failed and (perhaps) on its way back to the customer. */
const PAID_ENDS = new Set(["done", "failed", "refund_requested", "refunding", "refunded"]);
const PAID_AT_PROVIDER = new Set(["processing", "success"]);

export class Ledger {
  /** The run's first clock time (set once the world is made): times in messages count from it. */
  startedAt = 0;

  private readonly violations: string[] = [];
  private readonly faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  private readonly faultEnds: { at: number; kind: FaultKind }[] = [];
  /** The longest wait after each kind of fault. */
  private readonly waitsByKind = new Map<FaultKind | "none", number>();
  private readonly notices = new Map<string, number[]>();
  private readonly outcomes = new Map<string, number>();
  private current: ChaosEvent | undefined;
  private updates = 0;
  private storageErrors = 0;
  private readonly shownOnly: string[] = [];
  private transactions = 0;
  /** Shop orders whose QRIS a customer paid: when (clock), for the trail of a violation. */
  private readonly ordersPaid = new Map<string, number>();
  private orders = { total: 0, paid: 0, done: 0, ends: {} as Record<string, number> };
  private longest = { ms: 0, ref: undefined as string | undefined, why: "" };
  private longestLost = { ms: 0, ref: undefined as string | undefined, why: "" };

  violation(what: string): void {
    if (this.violations.length < 50) this.violations.push(this.current ? `${what} (at ${describeEvent(this.current)})` : what);
  }

  at(e: ChaosEvent): void {
    this.current = e;
  }

  fault(kind: FaultKind): void {
    this.faults[kind]++;
  }

  faultEnded(at: number, kind: FaultKind): void {
    this.faultEnds.push({ at, kind });
  }

  outcomeAt(refId: string, at: number): void {
    this.outcomes.set(refId, at);
  }

  orderPaid(orderRef: string, at: number): void {
    this.ordersPaid.set(orderRef, at);
  }

  /** One update's answer (or, for a duplicate, both deliveries' calls together). */
  answered(update: Update, calls: RecordedCall[], textOf: (c: RecordedCall) => string | undefined): void {
    this.updates++;
    // Every answer says what happened: never the generic apology (an invitation to retry a money action).
    const generic = calls.find((c) => c.response?.ok === true && GENERIC.test(textOf(c) ?? String(c.payload.text ?? "")));
    if (generic) this.violation(`update ${update.update_id} was answered "${textOf(generic) ?? String(generic.payload.text)}"`);
    if (!calls.some((c) => c.response?.ok === true && (isChatContentMethod(c.method) || c.method === "answerCallbackQuery"))) {
      this.violation(`update ${update.update_id} got no answer (${calls.map((c) => `${c.method}:${c.response?.ok ? "ok" : c.response?.error_code}`).join(", ") || "no call"})`);
    }
  }

  logLine(chunk: string, secrets: string[]): void {
    for (const line of chunk.split("\n")) {
      if (!line) continue;
      for (const s of [...secrets, FAKE_BOT_TOKEN, FAKE_BOT_TOKEN.split(":")[1]!]) {
        if (line.includes(s)) this.violation(`a secret in the log: ${line.split(s).join("<SECRET>").slice(0, 300)}`);
      }
      if (/"msg":"(handler failed|unhandled error)"/.test(line)) {
        // Storage that refused (a full or read-only disk, a database down): answered with the storage
        // words (error.ts), by design; that the answer said so is checked with the answer.
        if (STORAGE_DOWN.test(line)) this.storageErrors++;
        else this.violation(`handler error in the log: ${handlerError(line)}`);
      }
    }
  }

  /** Notices that went out since the last scan (the call log is emptied after it, for long runs). */
  scan(w: ChaosWorld): void {
    for (const c of w.fake.calls) {
      if (c.method !== "sendMessage" || c.response?.ok !== true) continue;
      const text = w.fake.textOf(c) ?? "";
      if (!OUTCOME_NOTICE.test(text)) continue;
      for (const ref of new Set(text.match(REF) ?? [])) this.notices.set(ref, [...(this.notices.get(ref) ?? []), c.at]);
    }
    w.fake.clear();
  }

  /** `lostCallbacks`: references whose provider callback was lost (their waits are counted apart). */
  async check(w: ChaosWorld, users: FakeUser[], lostCallbacks: ReadonlySet<string> = new Set()): Promise<void> {
    this.current = undefined;
    const creates = new Map<string, number>();
    for (const [path, field] of CREATES) {
      for (const call of w.sandbox.calls(path)) {
        const ref = String(call.body[field]);
        creates.set(ref, (creates.get(ref) ?? 0) + 1);
        if (!this.outcomes.has(ref) && path !== "/deposit/create") this.outcomes.set(ref, call.at + SETTLE_MS);
      }
    }
    const chats = new Set(users.map((u) => u.chatId));
    for (const [ref, n] of creates) {
      if (n > 1) this.violation(`${ref}: created ${n} times`);
      const rec = w.sandbox.transaction(ref) as { status?: string } | undefined;
      if (!rec?.status || !FINAL.has(rec.status)) continue;
      this.transactions++;
      const tx = await w.store.getTx(ref);
      if (!tx || !chats.has(tx.chatId)) {
        this.violation(`${ref}: the provider holds "${rec.status}", the bot has no such transaction`);
        continue;
      }
      if (tx.status !== rec.status) this.violation(`${ref}: the provider holds "${rec.status}", the bot's store "${tx.status}"`);
      // A shop order's deposit and purchase are told by the order (its own messages): checked below.
      if (orderRefOfTx(ref) !== undefined) continue;
      const told = this.notices.get(ref) ?? [];
      if (told.length > 1) this.violation(`${ref} (${tx.kind}): "${rec.status}" told ${told.length} times, at ${told.map((t) => t - this.startedAt).join(", ")} ms (run clock)`);
      if (told.length === 0) {
        // A downline's (or staff member's) purchase shows in the chat of whoever made it.
        const m = tx.messageId === undefined ? undefined : w.fake.message(tx.by ?? tx.chatId, tx.messageId);
        const shown = `${m?.text ?? ""}${m?.caption ?? ""}`;
        this.shownOnly.push(`${ref} ${tx.status} ${tx.watch ? JSON.stringify(tx.watch) : "unwatched"}`);
        if (!OUTCOME_SHOWN.test(shown)) {
          this.violation(`${ref} (${tx.kind}): "${rec.status}" never told (its message: ${JSON.stringify(shown.slice(0, 80))}; saved: ${tx.status}, ${JSON.stringify(tx.watch ?? {})})`);
        }
        continue;
      }
      const outcome = this.outcomes.get(ref);
      if (outcome === undefined) continue;
      const firstNews = told[0]!;
      const last = this.faultEnds.filter((f) => f.at <= firstNews).reduce<{ at: number; kind: FaultKind } | undefined>((a, b) => (a && a.at > b.at ? a : b), undefined);
      const lastEnd = last?.at ?? Number.NEGATIVE_INFINITY;
      const wait = firstNews - Math.max(outcome, lastEnd);
      const lost = lostCallbacks.has(ref);
      const kind = lost ? "callback-lost" : last && lastEnd > outcome ? last.kind : "none";
      this.waitsByKind.set(kind, Math.max(wait, this.waitsByKind.get(kind) ?? 0));
      const longest = lost ? this.longestLost : this.longest;
      if (wait > longest.ms) {
        const from = last && lastEnd > outcome ? `${last.kind} ended at ${lastEnd - this.startedAt}` : `the outcome at ${outcome - this.startedAt}`;
        // The provider's answers about it, for the report: when the bot asked, and what it heard.
        const asked = STATUS_PATHS.flatMap((p) => w.sandbox.calls(p))
          .filter((c) => c.body.id === tx.upstreamId || c.body.id === ref || c.body.reff_id === ref)
          .map((c) => c.at - this.startedAt);
        const checks = asked.length > 8 ? [...asked.slice(0, 4), "…", ...asked.slice(-4)] : asked;
        longest.ms = wait;
        longest.ref = ref;
        longest.why = `${ref} (${tx.kind}): news at ${firstNews - this.startedAt} ms, ${from}, status asked at ${checks.join(", ")} (run clock)`;
      }
    }
    await this.checkOrders(w, creates);
  }

  /** Every shop order against the provider: a paid QRIS ends fulfilled once, or failed / refunding; never bought twice. */
  async checkOrders(w: ChaosWorld, creates: Map<string, number>): Promise<void> {
    const docs: OrderDoc[] = await w.app.deps.shopOrders.inStates(ORDER_STATES);
    const statusOf = (ref: string) => (w.sandbox.transaction(ref) as { status?: string } | undefined)?.status;
    for (const doc of docs) {
      this.orders.total++;
      const deposit = statusOf(doc.value.depositRef);
      const prefix = purchaseRefOf(doc.id, 0).slice(0, -1);
      const purchases = [...creates].filter(([ref]) => ref.startsWith(prefix));
      const succeeded = purchases.filter(([ref]) => statusOf(ref) === "success").length;
      const last = doc.value.purchaseRefs.at(-1);
      const saved = last === undefined ? undefined : await w.store.getTx(last);
      const trail = () =>
        `order ${doc.id}: state ${doc.state}, deposit ${doc.value.depositRef} "${deposit ?? "not at the provider"}"` +
        `${this.ordersPaid.has(doc.id) ? ` (paid at ${this.ordersPaid.get(doc.id)! - this.startedAt} ms, run clock)` : ""}, ` +
        `purchases ${JSON.stringify(purchases.map(([ref, n]) => `${ref}×${n}:${statusOf(ref) ?? "?"}`))}, saved refs ${JSON.stringify(doc.value.purchaseRefs)} ` +
        `(the last in the bot's store: ${saved ? `${saved.status}${saved.message ? ` "${saved.message.slice(0, 80)}"` : ""}, upstream id ${saved.upstreamId ?? "-"}, watch ${JSON.stringify(saved.watch ?? {})}` : "none"}), ` +
        `paidAt ${doc.value.paidAt === undefined ? "-" : doc.value.paidAt - this.startedAt}, release ${doc.value.release ?? "-"}, waitingBalance ${doc.value.waitingBalance ?? "-"}, notices ${JSON.stringify(doc.value.notices)}`;
      if (succeeded > 1) this.violation(`bought twice: ${trail()}`);
      if (!deposit || !PAID_AT_PROVIDER.has(deposit)) continue;
      this.orders.paid++;
      if (doc.state === "done") this.orders.done++;
      const end = doc.value.reason ? `${doc.state}:${doc.value.reason}` : doc.state;
      this.orders.ends[end] = (this.orders.ends[end] ?? 0) + 1;
      if (!PAID_ENDS.has(doc.state)) this.violation(`paid and left "${doc.state}": ${trail()}`);
      else if (doc.state === "done" && succeeded !== 1) this.violation(`done with ${succeeded} successful purchases: ${trail()}`);
    }
  }

  /**
   * The downlines' wallets (docs/wallets.md "What the tests check"), once the watcher has settled: each
   * balance is the sum of its entries and never spends below zero; every held record is still open (or
   * success waiting to be posted, and none is left so after the settle); every success purchase was
   * debited once (one `<ref>:d` entry), and none that did not succeed was.
   */
  async checkWallets(w: ChaosWorld, downlines: FakeUser[], owners: FakeUser[]): Promise<void> {
    await w.app.deps.wallets.reconcile();
    await w.app.deps.wallets.idle();
    const unsettled = await w.store.unsettledTxs();
    const held = unsettled.filter((t) => t.wallet?.state === "held");
    for (const tx of unsettled) {
      if (tx.wallet?.state !== "held") {
        this.violation(`${tx.refId}: a paid deposit's credit not posted after the watcher settled`);
        continue;
      }
      if (!OPEN.has(tx.status) && tx.status !== "success") this.violation(`${tx.refId}: "${tx.status}" still holds ${tx.wallet?.price} of wallet ${tx.wallet?.chat}`);
      if (tx.status === "success") this.violation(`${tx.refId}: success left held after the watcher settled`);
    }
    const purchases = new Map<number, Readonly<TxRecord>[]>();
    for (const owner of owners) {
      for (const tx of (await w.store.listTxByChat(owner.chatId, { limit: 10_000 })).items) {
        if (tx.wallet && tx.kind !== "deposit") purchases.set(tx.wallet.chat, [...(purchases.get(tx.wallet.chat) ?? []), tx]);
      }
    }
    for (const d of downlines) {
      const wallet = await w.store.wallet(d.chatId);
      const entries = await w.store.walletEntries(d.chatId, { limit: 10_000 });
      const sum = entries.reduce((a, e) => a + e.amount, 0);
      if (sum !== wallet.balance) this.violation(`wallet ${d.chatId}: balance ${wallet.balance}, its entries sum to ${sum}`);
      if (wallet.balance - wallet.held < 0) this.violation(`wallet ${d.chatId}: available ${wallet.balance - wallet.held} is below zero`);
      const heldHere = held.filter((t) => t.wallet?.chat === d.chatId).reduce((a, t) => a + t.wallet!.price, 0);
      if (heldHere !== wallet.held) this.violation(`wallet ${d.chatId}: held ${wallet.held}, its held records hold ${heldHere}`);
      for (const tx of purchases.get(d.chatId) ?? []) {
        const debits = entries.filter((e) => e.ref === `${tx.refId}:d`).length;
        if (tx.status === "success" && debits !== 1) this.violation(`${tx.refId}: success debited ${debits} times from wallet ${d.chatId}`);
        if (tx.status !== "success" && debits > 0 && !entries.some((e) => e.ref === `${tx.refId}:r`)) this.violation(`${tx.refId}: "${tx.status}" debited from wallet ${d.chatId} without its refund`);
      }
      this.walletPurchases += (purchases.get(d.chatId) ?? []).filter((t) => t.status === "success").length;
    }
  }

  /** Downlines' purchases that succeeded (and were checked as debited once). */
  walletPurchases = 0;

  report(seed: number, events: ChaosEvent[], realMs: number, clockMs: number): ChaosReport {
    return {
      seed,
      faults: this.faults,
      faultTotal: Object.values(this.faults).reduce((a, b) => a + b, 0),
      violations: this.violations,
      longestWaitMs: this.longest.ms,
      longestWaitRef: this.longest.ref,
      longestWaitWhy: this.longest.why,
      lostCallbackWaitMs: this.longestLost.ms,
      lostCallbackWaitWhy: this.longestLost.why,
      storageErrors: this.storageErrors,
      shownOnly: this.shownOnly,
      waitsByKind: Object.fromEntries(this.waitsByKind),
      updates: this.updates,
      transactions: this.transactions,
      notices: [...this.notices.values()].reduce((a, b) => a + b.length, 0),
      orders: this.orders,
      walletPurchases: this.walletPurchases,
      clockMs,
      realMs,
      events,
    };
  }
}

/** A failing run, as the suite prints it: the seed to replay and every event. */
export function describeRun(r: ChaosReport): string {
  return [
    `chaos seed ${r.seed}: ${r.violations.length} violation(s)`,
    ...r.violations.map((v) => `  - ${v}`),
    `replay: runChaos({ seed: ${r.seed}, faults: ${r.events.filter((e) => e.type === "fault").length} })`,
    "events:",
    ...r.events.map((e) => `  ${describeEvent(e)}`),
  ].join("\n");
}

/** The parts of a handler error's log line that say where it came from. */
function handlerError(line: string): string {
  try {
    const l = JSON.parse(line) as { msg?: string; update_id?: number; err?: { message?: string; stack?: string } };
    const where = (l.err?.stack ?? "").split("\n").filter((s) => s.includes("/src/")).slice(0, 6).map((s) => s.trim()).join(" < ");
    return `${l.msg} (update ${l.update_id}): ${l.err?.message} at ${where}`;
  } catch {
    return line.slice(0, 500);
  }
}
