/**
 * Repeat sales and saved customers: "Buy again" and "Save customer" under a successful sale, and
 * /pelanggan (/customers) to list, search, rename, delete and buy for saved customers (their saved
 * product and their last ones). Buy again makes a fresh draft through the confirm screen (new
 * reference id, today's price, the usual checks); nothing here creates a transaction itself.
 * One room: every path here ends in the same "buy again for this target" step.
 */
import { Composer } from "grammy";
import type { SavedCustomer, TxRecord } from "../../store/index.js";
import type { PrepaidProduct } from "../../upstream/types.js";
import { UpstreamError, UpstreamRejected } from "../../upstream/errors.js";
import { html, wibTime } from "../../render/format.js";
import { isSale } from "../../domain/sale.js";
import { cb, onCallback, SEARCH_QUERY_MAX_BYTES } from "../buttons.js";
import { hideKeys } from "../../domain/keyShape.js";
import type { BaseContext, BotContext, BotConversation, ConvContext } from "../context.js";
import {
  canSaveCustomer,
  CUSTOMER_ICON,
  CUSTOMERS_MAX,
  parseCustomerName,
  saveCustomer,
  searchCustomers,
  type SaveResult,
} from "../savedCustomers.js";
import { isPrivate, replyPrivateOnly, requireMoneyKey } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { DRAFT_TTL_MS, saveAndConfirm, saveDraft, showConfirm } from "../money/confirm.js";
import { billFields, postpaidKind } from "../money/postpaid.js";
import { belowCostText, prepaidDraft, prepaidKind } from "../money/prepaid.js";
import { paginate } from "../paging.js";
import { customerCardKeyboard, customerDeleteKeyboard, customersBackKeyboard, customersKeyboard } from "../keyboards/customers.js";
import { editOrReply, upstreamErrorText } from "../replies.js";
import { refusalText as billRefusalText } from "../flows/bill.js";
import { askText } from "../flows/steps.js";
import { commands } from "../../telegram/commands.js";
import { startPurchase } from "./prepaidPurchase.js";
import { customersChat, ledgerChat, seesTx } from "../middlewares/roleGate.js";

export const SAVE_CUSTOMER_FLOW = "customer-save";
export const RENAME_CUSTOMER_FLOW = "customer-rename";
export const CUSTOMERS_PAGE_SIZE = 8;

// ------------------------------------------------------------------------------------------
// Buy again

/** The product as the provider lists it right now (not the cached list): today's price and stock. */
async function productNow(ctx: BaseContext, apiKey: string, code: string): Promise<PrepaidProduct | undefined> {
  const list = await ctx.deps.upstream.prepaidPriceList(apiKey, code);
  return list.find((p) => p.code === code);
}

/** What buying again needs: the product (or bill service) and the target. */
interface SaleAgain {
  code: string;
  target: string;
  title?: string;
}

async function buyPrepaidAgain(ctx: BotContext, apiKey: string, tx: SaleAgain): Promise<void> {
  const product = await productNow(ctx, apiKey, tx.code);
  if (!product) {
    await ctx.reply(ctx.t("topup-unknown-code", { code: html(tx.code) }));
    return;
  }
  // Out of order: the purchase flow offers the same face value under another code, to confirm there.
  if (!product.available) return startPurchase(ctx, product.code, tx.target, true);
  const belowCost = await belowCostText(ctx, product);
  if (belowCost) {
    await ctx.reply(belowCost);
    return;
  }
  await saveAndConfirm(ctx, prepaidKind, prepaidDraft(product, tx.target));
}

/** A fresh inquiry for the same customer number under a new, saved reference id (as the bill flow does). */
async function buyPostpaidAgain(ctx: BaseContext, apiKey: string, tx: SaleAgain): Promise<void> {
  const draft = await saveDraft(ctx, postpaidKind, { code: tx.code, title: tx.title, target: tx.target, amount: 0 });
  try {
    const inquiry = await ctx.deps.upstream.billInquiry(apiKey, { code: tx.code, reffId: draft.refId, customerNo: tx.target });
    const updated = await ctx.deps.ledger.updateDurably(draft.refId, billFields(inquiry));
    await showConfirm(ctx, postpaidKind, updated);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const message = err instanceof UpstreamRejected ? err.providerMessage : `inquiry failed: ${err.message}`;
    await ctx.deps.ledger.cancelDraft(draft.refId, message);
    const refused = err instanceof UpstreamRejected ? billRefusalText(ctx, err.providerMessage, tx.title ?? "") : undefined;
    await ctx.reply(refused ?? upstreamErrorText(ctx, err));
  }
}

// ------------------------------------------------------------------------------------------
// The list

function customerLine(c: SavedCustomer): string {
  const what = c.title ? ` · ${html(c.title)}` : "";
  return `${CUSTOMER_ICON[c.kind]} <b>${html(c.name)}</b> · <code>${html(c.target)}</code>${what}`;
}

const byName = (a: SavedCustomer, b: SavedCustomer) => a.name.localeCompare(b.name, "id", { sensitivity: "base" });

/** The saved customers (or those matching `query`), by name, a page at a time, a button per customer. */
async function showCustomers(ctx: BotContext, page: number, query: string | undefined, edit: boolean): Promise<void> {
  if (!ctx.chat) return;
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  // Staff work with their owner's customers, a downline with its own.
  const all = await ctx.deps.savedCustomers.list(customersChat(ctx));
  if (all.length === 0) {
    await editOrReply(ctx, ctx.t("customers-empty"), {}, edit);
    return;
  }
  const list = (query ? searchCustomers(all, query) : [...all]).sort(byName);
  if (list.length === 0) {
    await editOrReply(ctx, ctx.t("customers-search-none", { query: html(hideKeys(query ?? "")) }), {}, edit);
    return;
  }
  const shown = paginate(list, page, CUSTOMERS_PAGE_SIZE);
  const first = shown.page * CUSTOMERS_PAGE_SIZE;
  const title = query
    ? ctx.t("customers-search-title", { query: html(hideKeys(query)), count: list.length })
    : ctx.t("customers-title", { count: all.length, max: CUSTOMERS_MAX });
  const lines = shown.items.map((c, i) => `${first + i + 1}. ${customerLine(c)}`);
  const pageLine = shown.pages > 1 ? `\n${ctx.t("customers-page", { page: shown.page + 1, pages: shown.pages })}` : "";
  const text = `${title}${pageLine}\n\n${lines.join("\n")}\n\n${ctx.t("customers-hint")}`;

  const kb = customersKeyboard(ctx, shown.items, first, shown, (p) => (query ? cb.customersSearch.encode({ page: p, query }) : cb.customersPage.encode({ page: p })));
  await editOrReply(ctx, text, { reply_markup: kb }, edit);
}

async function findCustomer(ctx: BaseContext, id: string): Promise<SavedCustomer | undefined> {
  return ctx.chat ? (await ctx.deps.savedCustomers.list(customersChat(ctx))).find((c) => c.id === id) : undefined;
}

function customerDetail(ctx: BaseContext, c: SavedCustomer): string {
  const lines = [
    ctx.t("customer-detail-title", { name: html(c.name) }),
    "",
    `${ctx.t(`customer-kind-${c.kind}`)}: <code>${html(c.target)}</code>`,
    ...(c.title ? [`${ctx.t("customer-detail-product")}: ${html(c.title)}`] : []),
    `${ctx.t("customer-detail-saved")}: ${wibTime(c.createdAt, ctx.lang)}`,
  ];
  return lines.join("\n");
}

// ------------------------------------------------------------------------------------------
// Flows: a name for a new customer, a new name for a saved one

/** Asks for a name until one fits; undefined when the flow ended otherwise. */
async function askName(conversation: BotConversation, ctx: ConvContext, prompt: string): Promise<{ name: string; ctx: ConvContext }> {
  let c = ctx;
  for (;;) {
    const answer = await askText(conversation, c, prompt, { parse: parseCustomerName });
    c = answer.ctx;
    if ("value" in answer) return { name: answer.value, ctx: c };
  }
}

async function saveCustomerFlow(conversation: BotConversation, ctx: ConvContext, refId?: unknown): Promise<void> {
  if (typeof refId !== "string") return;
  const tx = await conversation.external(async () => await ctx.deps.ledger.get(refId));
  if (!tx?.target || !seesTx(ctx, tx)) return;
  const prompt = ctx.t("customer-ask-name", { target: `<code>${html(tx.target)}</code>`, what: html(tx.title ?? tx.code ?? "") });
  const { name, ctx: last } = await askName(conversation, ctx, prompt);
  const result = await conversation.external(
    async (): Promise<SaveResult> => await saveCustomer(last.deps.savedCustomers, customersChat(last), tx, name, last.deps.clock.now()),
  );
  if (!result.ok) {
    await last.reply(last.t(result.reason === "full" ? "customers-full" : "button-expired", { max: CUSTOMERS_MAX }));
    return;
  }
  const vars = { name: html(result.customer.name), target: `<code>${html(result.customer.target)}</code>`, old: html(result.renamed ?? "") };
  await last.reply(last.t(result.renamed !== undefined ? "customer-saved-renamed" : "customer-saved", vars));
}

async function renameCustomerFlow(conversation: BotConversation, ctx: ConvContext, id?: unknown): Promise<void> {
  if (typeof id !== "string") return;
  const old = await conversation.external(async () => await findCustomer(ctx, id));
  if (!old) return;
  const prompt = ctx.t("customer-ask-rename", { name: html(old.name), target: `<code>${html(old.target)}</code>` });
  const { name, ctx: last } = await askName(conversation, ctx, prompt);
  const renamed = await conversation.external(async () => await last.deps.savedCustomers.rename(customersChat(last), id, name));
  // Deleted meanwhile (another device): nothing to rename.
  if (!renamed) {
    await last.reply(last.t("customer-gone"));
    return;
  }
  await last.reply(last.t("customer-renamed", { old: html(old.name), name: html(renamed.name) }), { reply_markup: customersBackKeyboard(last) });
}

// ------------------------------------------------------------------------------------------
// Commands and buttons

const composer = new Composer<BotContext>();

/** The search as carried in the paging buttons: single spaces, within the callback data's limit. */
function searchQuery(text: string): string {
  let q = text.replace(/\s+/g, " ").trim();
  while (Buffer.byteLength(q, "utf8") > SEARCH_QUERY_MAX_BYTES) q = Array.from(q).slice(0, -1).join("").trim();
  return q;
}

composer.command(commands.pelanggan, async (ctx) => {
  const query = searchQuery(ctx.match);
  await showCustomers(ctx, 0, query || undefined, false);
});

onCallback(composer, cb.customersPage, async (ctx, { page }) => {
  await ctx.answerCallbackQuery();
  await showCustomers(ctx, page, undefined, true);
});

onCallback(composer, cb.customersSearch, async (ctx, { page, query }) => {
  await ctx.answerCallbackQuery();
  await showCustomers(ctx, page, query, true);
});

/** Answers a press on a saved customer's button: the customer, or a toast that it is gone. */
async function pressedCustomer(ctx: BotContext, id: string): Promise<SavedCustomer | undefined> {
  const c = await findCustomer(ctx, id);
  await ctx.answerCallbackQuery(c ? undefined : { text: ctx.t("customer-gone") });
  return c;
}

/**
 * A customer's card: their details, the saved product and their other recent products still sold as
 * buttons; below it, the confirm screen of their last product still sold (today's price), so a repeat
 * sale is the customer's tap and Confirm. Opened again while that screen is live: no second one.
 */
onCallback(composer, cb.customerOpen, async (ctx, { id }) => {
  const c = await pressedCustomer(ctx, id);
  if (!c) return;
  const apiKey = ctx.chat ? await ctx.deps.providerLink.keyOf(ledgerChat(ctx)) : undefined;
  const sold = apiKey ? await soldToday(ctx, apiKey) : undefined;
  const stillSold = (kind: TxRecord["kind"] | SavedCustomer["source"], code: string) => kind !== "prepaid" || !sold || sold.has(code);
  const sales = (await lastSalesOf(ctx, c)).filter((tx) => stillSold(tx.kind, tx.code!));
  const saved = buyable(c) && stillSold(c.source, c.code) ? (c.title ?? c.code) : undefined;
  const others = sales.filter((tx) => tx.code !== c.code).slice(0, LAST_PRODUCTS_MAX);
  await editOrReply(ctx, customerDetail(ctx, c), { reply_markup: customerCardKeyboard(ctx, c, saved, others) });

  // Only from a list read just now: a provider that cannot say what is sold gets no screen unasked.
  const last = sales.find((tx) => tx.kind === "prepaid") ?? (saved !== undefined && c.source === "prepaid" ? { code: c.code, title: c.title } : undefined);
  if (!apiKey || !sold || !last?.code) return;
  if (await liveDraftLike(ctx, { chatId: ledgerChat(ctx), kind: "prepaid", code: last.code, target: c.target })) return;
  try {
    await buyPrepaidAgain(ctx, apiKey, { code: last.code, target: c.target, ...(last.title !== undefined ? { title: last.title } : {}) });
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    await ctx.reply(upstreamErrorText(ctx, err));
  }
});

const LAST_PRODUCTS_MAX = 3;
const LAST_PRODUCTS_SCAN = 100;

/** The codes of the products the provider sells now (the cached list); undefined when it cannot say. */
async function soldToday(ctx: BaseContext, apiKey: string): Promise<ReadonlySet<string> | undefined> {
  const list = await ctx.deps.lists.prepaid(apiKey).catch((err: unknown) => {
    if (err instanceof UpstreamError) return undefined;
    throw err;
  });
  return list && new Set(list.filter((p) => p.available).map((p) => p.code));
}

/** The customer's last successful sales, newest first, one per product. */
async function lastSalesOf(ctx: BaseContext, c: SavedCustomer): Promise<Readonly<TxRecord>[]> {
  if (!ctx.chat) return [];
  const seen = new Set<string>();
  const found: Readonly<TxRecord>[] = [];
  for (const tx of await ctx.deps.ledger.recent(ledgerChat(ctx), LAST_PRODUCTS_SCAN)) {
    if (tx.status !== "success" || !isSale(tx) || tx.target !== c.target || !tx.code || seen.has(tx.code)) continue;
    if (!seesTx(ctx, tx)) continue; // a cashier buys again only from its own sales
    seen.add(tx.code);
    found.push(tx);
  }
  return found;
}

/** A customer saved from a sale can buy its product again (a transfer's account goes through /transfer). */
function buyable(c: SavedCustomer): c is SavedCustomer & { code: string } {
  return (c.source === "prepaid" || c.source === "postpaid") && c.code !== undefined && c.code !== "";
}

onCallback(composer, cb.customerBuy, async (ctx, { id }) => {
  const c = await pressedCustomer(ctx, id);
  if (!c || !buyable(c)) return;
  const apiKey = await requireMoneyKey(ctx);
  if (!apiKey) return;
  const sale = { code: c.code, target: c.target, ...(c.title !== undefined ? { title: c.title } : {}) };
  try {
    if (c.source === "prepaid") await buyPrepaidAgain(ctx, apiKey, sale);
    else await buyPostpaidAgain(ctx, apiKey, sale);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    await ctx.reply(upstreamErrorText(ctx, err));
  }
});

onCallback(composer, cb.customerRename, async (ctx, { id }) => {
  if (!(await pressedCustomer(ctx, id))) return;
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(RENAME_CUSTOMER_FLOW, id);
});

// Deleting asks once: a saved customer is a reseller's address book.
onCallback(composer, cb.customerDelete, async (ctx, { id }) => {
  const c = await pressedCustomer(ctx, id);
  if (!c) return;
  const kb = customerDeleteKeyboard(ctx, id);
  await editOrReply(ctx, ctx.t("customer-delete-ask", { name: html(c.name), target: `<code>${html(c.target)}</code>` }), { reply_markup: kb });
});

onCallback(composer, cb.customerDeleteYes, async (ctx, { id }) => {
  const gone = ctx.chat && await ctx.deps.savedCustomers.remove(customersChat(ctx), id);
  if (!gone) {
    await ctx.answerCallbackQuery({ text: ctx.t("customer-gone") });
    return;
  }
  await ctx.answerCallbackQuery();
  await editOrReply(ctx, ctx.t("customer-deleted", { name: html(gone.name), target: `<code>${html(gone.target)}</code>` }), {
    reply_markup: customersBackKeyboard(ctx),
  });
});

/** The chat's own successful record behind a shop button, else undefined (stale, foreign, not final). */
async function ownSuccess(ctx: BaseContext, refId: string): Promise<TxRecord | undefined> {
  const tx = await ctx.deps.ledger.get(refId);
  return tx && seesTx(ctx, tx) && tx.status === "success" ? tx : undefined;
}

/** A confirm screen for the same thing and target still waiting for Confirm. */
async function liveDraftLike(ctx: BaseContext, tx: Pick<TxRecord, "chatId" | "kind" | "code" | "target">): Promise<boolean> {
  const now = ctx.deps.clock.now();
  const items = await ctx.deps.ledger.recent(tx.chatId, 20);
  return items.some((o) => o.status === "draft" && o.kind === tx.kind && o.code === tx.code && o.target === tx.target && now - o.createdAt <= DRAFT_TTL_MS);
}

onCallback(composer, cb.buyAgain, async (ctx, { refId }) => {
  const tx = await ownSuccess(ctx, refId);
  if (!tx || !isSale(tx) || !tx.code || !tx.target) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  // A double tap (one chat's updates run in turn) finds the first tap's screen: no second one.
  if (await liveDraftLike(ctx, tx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("buy-again-open") });
    return;
  }
  await ctx.answerCallbackQuery();
  const apiKey = await requireMoneyKey(ctx);
  if (!apiKey) return;
  try {
    const sale = { code: tx.code, target: tx.target, ...(tx.title !== undefined ? { title: tx.title } : {}) };
    if (tx.kind === "prepaid") await buyPrepaidAgain(ctx, apiKey, sale);
    else await buyPostpaidAgain(ctx, apiKey, sale);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    await ctx.reply(upstreamErrorText(ctx, err));
  }
});

onCallback(composer, cb.saveCustomer, async (ctx, { refId }) => {
  const tx = await ownSuccess(ctx, refId);
  if (!tx || !canSaveCustomer(tx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  await ctx.answerCallbackQuery();
  const list = await ctx.deps.savedCustomers.list(customersChat(ctx));
  // Full, and not a new name for one already saved: say so before asking for a name.
  if (list.length >= CUSTOMERS_MAX && !list.some((c) => c.target === tx.target)) {
    await ctx.reply(ctx.t("customers-full", { max: CUSTOMERS_MAX }));
    return;
  }
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(SAVE_CUSTOMER_FLOW, refId);
});

export const customersModule: FeatureModule = {
  name: "customers",
  composer,
  commands: { pelanggan: "cashier" },
  buttons: {
    buyAgain: "cashier",
    saveCustomer: "cashier",
    customersPage: "cashier",
    customersSearch: "cashier",
    customerOpen: "cashier",
    customerBuy: "cashier",
    customerRename: "cashier",
    customerDelete: "cashier",
    customerDeleteYes: "cashier",
  },
  menu: { customers: (ctx) => showCustomers(ctx, 0, undefined, false) },
  flows: [
    { id: SAVE_CUSTOMER_FLOW, builder: saveCustomerFlow },
    { id: RENAME_CUSTOMER_FLOW, builder: renameCustomerFlow },
  ],
};
