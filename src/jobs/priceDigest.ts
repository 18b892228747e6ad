/**
 * The daily price digest and the below-cost notice, leader-only, every quarter hour on the clock:
 *  - each linked, active chat with the digest on (the default) gets, at its chosen time (08.00 WIB
 *    unless set), the cost changes of the last 24 hours for the products it sold in the last 30 days,
 *    with the selling price each becomes under its rules; nothing when nothing it sold moved. At most
 *    once a day: the day is marked (compare-and-set) and flushed before the message goes out; a quiet
 *    day writes nothing.
 *  - a chat whose fixed selling price is now below the cost (as last fetched) is told once which
 *    prices to fix; the codes told are remembered until the price is fixed.
 * Each chat's marks and send run under the lead's term (LeaderTerm), like the daily summary.
 */
import { addDays, wibDay, wibDayStart } from "../domain/report.js";
import {
  changeDigest,
  costMovesSince,
  DEFAULT_DIGEST_AT,
  DIGEST_STEP_MINUTES,
  PriceDigestKind,
  SeenPricesKind,
  type CostMove,
} from "../domain/priceChanges.js";
import { fixedBelowCost, quotePrepaid } from "../domain/pricing.js";
import { groupKey } from "../domain/groupKey.js";
import { html, rupiah } from "../render/format.js";
import { withSandboxBanner } from "../render/sandboxBanner.js";
import type { ChatRecord, Lang, Store } from "../store/index.js";
import { accountOf } from "../upstream/cache.js";
import { counted, deliver } from "../telegram/delivery.js";
import { ScheduledJob, type MessagingJobOptions } from "./scheduledJob.js";

const DAY_MS = 24 * 60 * 60_000;
const STEP_MS = DIGEST_STEP_MINUTES * 60_000;
/** Products sold this long ago still count as the chat's own. */
export const SOLD_WINDOW_MS = 30 * DAY_MS;
/** Lines of a digest; the rest is counted. */
const MAX_LINES = 25;

export type PriceDigestOptions = MessagingJobOptions;

/** Looks at start (a start after a chat's time still sends that day's digest), then every quarter hour. */
export class PriceDigest extends ScheduledJob {
  /**
   * Chats found with nothing to say on `day`: not looked at again that day. Kept in memory, not
   * written: a quiet day costs no write per chat (a restart looks once more).
   */
  private quiet = { day: "", chats: new Set<number>() };

  constructor(private readonly opts: PriceDigestOptions) {
    super(opts.clock, opts.logger, "price digest", opts.fence);
  }

  /** One look at every chat; one run at a time. */
  run(): Promise<void> {
    return this.serially(() => this.look());
  }

  /** The next quarter hour: quarter hours of UTC are quarter hours of WIB (a whole-hour offset). */
  protected nextAt(now: number): number {
    return (Math.floor(now / STEP_MS) + 1) * STEP_MS;
  }

  protected due(): void {
    void this.run();
  }

  protected atStart(): void {
    void this.run();
  }

  private async look(): Promise<void> {
    const { store } = this.opts;
    const now = this.opts.clock.now();
    const settings = new Map((await store.listDocs(PriceDigestKind, {})).map((d) => [d.owner, d]));
    for (const chat of await store.linkedChats()) {
      if (this.signal.aborted || this.lead.lost) return;
      if (chat.inactive) continue;
      const key = store.apiKeyOf(chat);
      if (!key) continue;
      const doc = settings.get(chat.chatId);
      await this.belowCost(chat, key, doc?.value.told ?? []);
      if (doc?.state === "off") continue;
      const at = doc?.value.at ?? DEFAULT_DIGEST_AT;
      const today = wibDay(now);
      const due = wibDayStart(today) + at * 60_000;
      if (now < due || doc?.value.day === today) continue;
      if (this.quiet.day !== today) this.quiet = { day: today, chats: new Set() };
      if (this.quiet.chats.has(chat.chatId)) continue;
      await this.digest(chat, key, today, due);
    }
  }

  /** Tells the fixed prices now below the cost that were not told yet; remembers what is below now. */
  private async belowCost(chat: Readonly<ChatRecord>, key: string, told: readonly string[]): Promise<void> {
    const rules = chat.pricing;
    if (!rules?.fixed || Object.keys(rules.fixed).length === 0) {
      if (told.length > 0) await this.lead.run(async () => void (await changeDigest(this.opts.store, chat.chatId, (c) => ({ on: c.on, value: { ...c.value, told: [] } }))));
      return;
    }
    const seen = await this.opts.store.getDoc(SeenPricesKind, accountOf(key));
    if (!seen) return;
    const below = fixedBelowCost(rules, new Map(Object.entries(seen.value.costs)));
    const fresh = below.filter((b) => !told.includes(b.code));
    const now = below.map((b) => b.code);
    if (fresh.length === 0 && now.length === told.length) return;
    const lang = chat.lang ?? "id";
    const t = this.opts.translate;
    const text = [
      t(lang, "prices-below-cost-notice"),
      "",
      ...fresh.map((b) => t(lang, "prices-below-cost-line", { code: html(b.code), fixed: rupiah(b.fixed, lang), cost: rupiah(b.cost, lang) })),
    ].join("\n");
    await this.markThenSend(chat, (c) => ({ on: c.on, value: { ...c.value, told: now } }), fresh.length > 0 ? text : undefined);
  }

  private async digest(chat: Readonly<ChatRecord>, key: string, today: string, due: number): Promise<void> {
    const { store } = this.opts;
    const moves = await costMovesSince(store, accountOf(key), due - DAY_MS);
    // Most days most products do not move: the sales are read only when something did.
    const sold = moves.size > 0 ? await soldCodes(store, chat.chatId, due) : new Set<string>();
    const shown = [...moves.values()].filter((m) => sold.has(m.code)).sort((a, b) => a.name.localeCompare(b.name, "id") || a.code.localeCompare(b.code));
    if (shown.length === 0) {
      this.quiet.chats.add(chat.chatId);
      return;
    }
    const mark = (c: { on: boolean; value: { at: number; day?: string; told?: string[] } }) =>
      c.value.day === today ? undefined : { on: c.on, value: { ...c.value, day: today } };
    await this.markThenSend(chat, mark, this.digestText(chat, shown));
  }

  private digestText(chat: Readonly<ChatRecord>, moves: readonly CostMove[]): string {
    const lang: Lang = chat.lang ?? "id";
    const t = this.opts.translate;
    const rules = chat.pricing ?? {};
    const lines = moves.slice(0, MAX_LINES).map((m) => {
      const quote = quotePrepaid(rules, { code: m.code, categoryKey: groupKey(m.category), cost: m.newCost });
      const vars = { arrow: m.newCost > m.oldCost ? "⬆️" : "⬇️", name: html(m.name), code: html(m.code), old: rupiah(m.oldCost, lang), new: rupiah(m.newCost, lang), price: rupiah(quote.price, lang) };
      return t(lang, quote.price < quote.cost ? "prices-digest-line-refused" : "prices-digest-line", vars);
    });
    const more = moves.length - lines.length;
    return [
      t(lang, "prices-digest-title"),
      "",
      ...lines,
      ...(more > 0 ? [t(lang, "prices-digest-more", { count: more })] : []),
      "",
      t(lang, "prices-digest-footer"),
    ].join("\n");
  }

  /**
   * Under the lead's term: marks the chat's digest document (compare-and-set; nothing when `change`
   * declines or another writer won), flushes, then sends `text` if any. A chat that blocked the bot is
   * marked inactive.
   */
  private async markThenSend(
    chat: Readonly<ChatRecord>,
    change: Parameters<typeof changeDigest>[2],
    text: string | undefined,
  ): Promise<void> {
    const { store, api, pacer, logger, translate: t } = this.opts;
    await this.lead.run(async () => {
      if (!(await changeDigest(store, chat.chatId, change))) return;
      await store.flush();
      if (text === undefined) return;
      const body = withSandboxBanner(t, chat.lang ?? "id", this.opts.sandbox ?? false, text);
      const r = await deliver(() => api.sendMessage(chat.chatId, body), { pacer, signal: this.signal });
      const outcome = counted(r);
      if (outcome === "blocked") await store.updateChat(chat.chatId, { inactive: true });
      else if (outcome === "failed") logger.warn({ chatId: chat.chatId, err: "error" in r ? r.error : undefined }, "price notice not delivered");
    });
  }
}

/** The prepaid codes the chat sold (successfully) in the 30 days before `until`. */
async function soldCodes(store: Store, chatId: number, until: number): Promise<Set<string>> {
  const since = until - SOLD_WINDOW_MS;
  const months = new Set([wibDay(since).slice(0, 7), wibDay(until).slice(0, 7)]);
  // Thirty days can touch three months (31 January to 1 March): every month between is read too.
  for (let d = wibDay(since); d <= wibDay(until); d = addDays(d, 28)) months.add(d.slice(0, 7));
  const codes = new Set<string>();
  for (const month of months) {
    for (const tx of await store.txsOfMonth(chatId, month)) {
      if (tx.kind === "prepaid" && tx.status === "success" && tx.code && tx.createdAt >= since && tx.createdAt < until) codes.add(tx.code);
    }
  }
  return codes;
}
