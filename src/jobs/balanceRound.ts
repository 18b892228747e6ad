/**
 * The admin balance round (/ceksaldo): every linked, active chat gets its current balance, with a
 * warning where it is under the chat's threshold (which also counts as that dip's low-balance
 * alert), and the admin a summary. Each chat is told in its alerts lane (`BalanceAlerts.inChatLane`),
 * so a round and an alert never both announce the same dip; the round stops with the alerts.
 */
import { html, rupiah } from "../render/format.js";
import type { Lang } from "../store/index.js";
import { eachLimit, type BalanceAlerts } from "./alerts.js";
import { counted } from "../telegram/delivery.js";

export interface AdminRoundSummary {
  /** Linked, active chats at the start. */
  total: number;
  sent: number;
  /** No balance (upstream failure) or the message failed. */
  failed: number;
  /** 403: marked inactive. */
  blocked: number;
  /** Under their own threshold (told so). */
  under: number;
}

/** A chat found under its threshold: named in the admin's summary (a count alone says whom to call nobody). */
interface UnderChat {
  chatId: number;
  shopName: string | undefined;
  balance: number;
  threshold: number;
}

/** The summary names at most this many chats under their threshold (one message), then counts the rest. */
const UNDER_NAMED_MAX = 20;

export class BalanceRound {
  private running: Promise<AdminRoundSummary> | undefined;

  /** Reads balances, sends and paces through `alerts` (its store, api, pacer and concurrency). */
  constructor(private readonly alerts: BalanceAlerts) {}

  isRunning(): boolean {
    return this.running !== undefined;
  }

  /**
   * Starts the round in the background; the admin gets the summary in `adminLang` when it ends.
   * Refused while one is running. Returns the number of chats it covers.
   */
  async start(adminChatId: number, adminLang: Lang): Promise<{ ok: true; total: number } | { ok: false }> {
    if (this.running || this.alerts.signal.aborted) return { ok: false };
    const chats = (await this.alerts.opts.store.linkedChats()).map((c) => c.chatId);
    if (this.running || this.alerts.signal.aborted) return { ok: false }; // another start won meanwhile
    const round = this.run(chats, adminChatId, adminLang).finally(() => {
      this.running = undefined;
    });
    this.running = round;
    void this.alerts.track(round);
    return { ok: true, total: chats.length };
  }

  /** Resolves with the running round's summary (tests). */
  done(): Promise<AdminRoundSummary | undefined> {
    return this.running ?? Promise.resolve(undefined);
  }

  private async run(chatIds: number[], adminChatId: number, adminLang: Lang): Promise<AdminRoundSummary> {
    const { logger, translate } = this.alerts.opts;
    const summary: AdminRoundSummary = { total: chatIds.length, sent: 0, failed: 0, blocked: 0, under: 0 };
    const underChats: UnderChat[] = [];
    await eachLimit(chatIds, this.alerts.concurrency, (chatId) =>
      this.alerts.inChatLane(chatId, async () => {
        const outcome = await this.tellBalance(chatId, underChats).catch((err: unknown) => {
          logger.error({ chatId, err }, "admin balance round: chat failed");
          return "failed" as const;
        });
        if (outcome === "skipped") return;
        if (outcome === "under") summary.under++;
        if (outcome === "blocked") summary.blocked++;
        else if (outcome === "failed") summary.failed++;
        else summary.sent++;
      }),
    );
    logger.info(summary, "admin balance round finished");
    if (!this.alerts.signal.aborted) {
      const text = translate(adminLang, "admin-round-summary", { ...summary }) + underList(translate, adminLang, underChats);
      const ok = await this.alerts.send(adminChatId, text);
      if (!ok) logger.warn("could not send the balance round summary to the admin");
    }
    return summary;
  }

  private async tellBalance(chatId: number, underChats: UnderChat[]): Promise<"sent" | "under" | "failed" | "blocked" | "skipped"> {
    const { store, translate: t, logger } = this.alerts.opts;
    const before = await store.getChat(chatId);
    if (!before || before.inactive || before.apiKeyEnc === undefined || this.alerts.signal.aborted) return "skipped";
    const balance = await this.alerts.balanceOf(chatId);
    if (balance === undefined) return "failed";
    const chat = (await store.getChat(chatId))!;
    const lang = chat.lang ?? "id";
    const threshold = chat.alertThreshold;
    const under = threshold !== undefined && balance < threshold;
    let text = t(lang, "admin-round-balance", { balance: rupiah(balance, lang) });
    if (under) text += `\n${t(lang, "admin-round-under", { threshold: rupiah(threshold, lang) })}`;
    const r = await this.alerts.deliverTo(chatId, this.alerts.money(lang, text));
    const outcome = counted(r);
    if (outcome === "stopped") return "skipped";
    if (outcome === "blocked") {
      await store.updateChat(chatId, { inactive: true });
      return "blocked";
    }
    if (outcome === "failed") {
      logger.warn({ chatId, err: "error" in r ? r.error : undefined }, "admin balance round: message failed");
      return "failed";
    }
    await this.alerts.toldBalance(chat, under);
    if (under) underChats.push({ chatId, shopName: chat.shopName, balance, threshold });
    return under ? "under" : "sent";
  }
}

/** The chats under their threshold, lowest balance first: shop name (when set) and chat id, balance, threshold. */
function underList(t: BalanceAlerts["opts"]["translate"], lang: Lang, chats: UnderChat[]): string {
  if (chats.length === 0) return "";
  const sorted = [...chats].sort((a, b) => a.balance - b.balance || a.chatId - b.chatId);
  const lines = sorted.slice(0, UNDER_NAMED_MAX).map((c) =>
    t(lang, "admin-round-under-line", {
      chat: c.shopName ? `${html(c.shopName)} · ${c.chatId}` : String(c.chatId),
      balance: rupiah(c.balance, lang),
      threshold: rupiah(c.threshold, lang),
    }),
  );
  if (sorted.length > UNDER_NAMED_MAX) lines.push(t(lang, "admin-round-under-more", { count: sorted.length - UNDER_NAMED_MAX }));
  return `\n\n${t(lang, "admin-round-under-title")}\n${lines.join("\n")}`;
}
