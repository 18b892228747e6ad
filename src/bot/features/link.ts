/**
 * Linking a chat to its own reseller api key: /start, /kunci (/key), /keluar (/logout), the key
 * message itself (deleted at once, checked with /get_profile), keys pasted again after linking,
 * and keys pasted into groups. What counts as a key: domain/keyShape.ts.
 */
import { Composer } from "grammy";
import { UpstreamError, UpstreamRejected } from "../../upstream/errors.js";
import { maskKey } from "../../store/index.js";
import type { BotContext } from "../context.js";
import { html, rupiah, wibClock } from "../../render/format.js";
import { findKeys, isKeyShaped } from "../../domain/keyShape.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { commands } from "../../telegram/commands.js";
import { audit } from "../../domain/audit.js";
import { ledgerChat } from "../middlewares/roleGate.js";
import { knownRole } from "../middlewares/role.js";
import { withPinCommand } from "../pin/gate.js";
import { announceSecurity } from "../pin/announce.js";
import type { FeatureModule } from "../module.js";

export const linkFeature = new Composer<BotContext>();

linkFeature.command(commands.start, async (ctx) => {
  const name = html(ctx.from?.first_name ?? "");
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  const mask = await ctx.deps.providerLink.linkedMask(ctx.chat.id);
  if (mask !== undefined) {
    await ctx.reply(`${ctx.t("welcome", { name })}\n\n${ctx.t("welcome-linked", { mask })}`);
    return;
  }
  await ctx.deps.providerLink.awaitKey(ctx.chat.id, ctx.lang);
  await ctx.reply(`${ctx.t("welcome", { name })}\n\n${ctx.t("welcome-ask-key")}`);
});

// Replacing or removing the key asks the PIN (docs/pin.md); a forgotten PIN is reset by sending the same key.
const askNewKey = withPinCommand("kunci", () => ({ what: "pin-for-key" }), async (ctx) => {
  await ctx.deps.providerLink.awaitKey(ctx.chat!.id);
  await ctx.reply(ctx.t("key-ask"));
});

const removeKey = withPinCommand("keluar", () => ({ what: "pin-for-key" }), async (ctx) => {
  const chat = ctx.chat!.id;
  const mask = await ctx.deps.providerLink.linkedMask(chat);
  const removed = await ctx.deps.providerLink.unlink(chat);
  if (removed) {
    await audit(ctx, "key_removed", mask);
    await announceSecurity(ctx, "pin-told-key", { what: "removed" });
  }
  await ctx.reply(removed ? [ctx.t("logout-done"), ...(await stopsWithKey(ctx))].join("\n") : ctx.t("logout-none"));
});

linkFeature.command(commands.kunci, async (ctx) => {
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  await askNewKey(ctx, "");
});

linkFeature.command(commands.keluar, async (ctx) => {
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  await removeKey(ctx, "");
});

/** What works with the owner's key besides the owner (staff, an online shop that is on): told on /keluar. */
async function stopsWithKey(ctx: BotContext): Promise<string[]> {
  const owner = ctx.chat!.id;
  const staff = (await ctx.deps.staff.members(owner)).length > 0;
  const shop = (await ctx.deps.shop.get(owner)).enabled === true;
  if (!staff && !shop) return [];
  return [ctx.t("logout-stops", { what: staff && shop ? "both" : staff ? "staff" : "shop" })];
}

// A key pasted in a group: delete it and warn its author in private (in the group only when that
// is impossible). Nothing of the key is repeated. The author's own linked key is caught whatever its shape.
linkFeature
  .chatType(["group", "supergroup"])
  .on("message:text")
  .filter(async (ctx) => findKeys(ctx.message.text, await ownKey(ctx, ctx.from.id)).length > 0, async (ctx) => {
    const deleted = await ctx.deleteMessage().then(
      () => true,
      () => false,
    );
    const state = deleted ? "yes" : "no";
    const warned = await ctx.api
      .sendMessage(ctx.from.id, ctx.translate(await langOf(ctx, ctx.from.id), "key-in-group-private", { group: html(ctx.chat.title), deleted: state }))
      .then(
        () => true,
        () => false,
      );
    if (!warned) await ctx.reply(ctx.t("key-in-group", { name: html(ctx.from.first_name), deleted: state }));
  });

// In a private chat that is waiting for a key, the next plain text is the key, if it looks like one.
linkFeature
  .chatType("private")
  .on("message:text")
  .filter(
    // A command is told apart without a promise: the test runs for every private text.
    (ctx) => !ctx.message.text.startsWith("/") && isAwaitingKey(ctx),
    async (ctx) => {
      const raw = ctx.message.text.trim();
      if (!isKeyShaped(raw)) {
        // Not a key: left as it is and never sent to the provider.
        const linked = await ctx.deps.providerLink.isLinked(ctx.chat.id);
        await ctx.reply(ctx.t(linked ? "key-invalid-format" : "key-how-to-link"));
        return;
      }
      await linkKey(ctx, raw); // deletes the key message once the link is saved
    },
  );

// A key pasted in a linked chat outside /kunci: deleted, and answered without repeating it.
linkFeature
  .chatType("private")
  .on("message:text")
  .filter(
    (ctx) => !ctx.message.text.startsWith("/") && isKeyShaped(ctx.message.text) && isNoOwnTxRef(ctx, ctx.message.text),
    async (ctx) => {
      await deleteKeyMessage(ctx);
      if (ctx.role.kind === "staff") return void (await ctx.reply(ctx.t("staff-key-refused")));
      const same = (await ownKey(ctx, ctx.chat.id)).includes(ctx.message.text.trim());
      if (same && ctx.role.kind === "owner" && (await resetsPin(ctx))) return;
      await ctx.reply(ctx.t(same ? "key-already-linked" : "key-other-pasted"));
    },
  );

/**
 * The owner's own key sent again while a PIN is set (or locked): the forgotten PIN is removed and
 * money-out held for 24 hours (only the provider account's holder has the key). False: no PIN to reset.
 */
export async function resetsPin(ctx: BotContext): Promise<boolean> {
  const s = await ctx.deps.pins.state(ctx.chat!.id);
  if (s.hash === undefined && s.lockedUntil === undefined) return false;
  const until = wibClock(await ctx.deps.pins.reset(ctx.chat!.id), ctx.lang);
  await audit(ctx, "pin_reset", undefined, `money-out held until ${until}`);
  await ctx.reply(ctx.t("pin-reset-done", { until }));
  await announceSecurity(ctx, "pin-told-reset", { until });
  return true;
}

/** The key message goes only once the link is saved: a lost answer must never leave a deleted key and no link. */
export async function deleteKeyMessage(ctx: BotContext): Promise<void> {
  const deleted = await ctx.deleteMessage().then(
    () => true,
    () => false,
  );
  if (!deleted) await ctx.reply(ctx.t("key-not-deleted"));
}

/** The api key linked in `chatId` (a user's private chat), as a list for findKeys. */
async function ownKey(ctx: BotContext, chatId: number): Promise<string[]> {
  try {
    const key = await ctx.deps.providerLink.keyOf(chatId);
    return key ? [key] : [];
  } catch {
    return []; // unreadable (store secret): the shape rule still applies
  }
}

async function langOf(ctx: BotContext, chatId: number) {
  return (await ctx.deps.settings.language(chatId)) ?? ctx.lang;
}

/** Staff never link a key (their chat has none, yet is not waiting for one). */
/** A pasted reference or provider id of the chat's own transaction is not a key. */
async function isNoOwnTxRef(ctx: BotContext, text: string): Promise<boolean> {
  return (await ctx.deps.ledger.find(ledgerChat(ctx), text.trim())) === undefined;
}

async function isAwaitingKey(ctx: BotContext): Promise<boolean> {
  return knownRole(ctx)?.kind !== "staff" && ctx.deps.providerLink.isAwaitingKey(ctx.chat!.id);
}

async function linkKey(ctx: BotContext, key: string): Promise<void> {
  const chatId = ctx.chat!.id;
  const checking = await ctx.reply(ctx.t("key-checking"));
  const show = (text: string) =>
    ctx.api.editMessageText(chatId, checking.message_id, text).catch(() => ctx.reply(text));
  let keyMessageGone = false;
  const dropKeyMessage = () => ((keyMessageGone = true), deleteKeyMessage(ctx));
  try {
    const profile = await ctx.deps.upstream.getProfile(key);
    const before = await ctx.deps.providerLink.linkedMask(chatId);
    const shared = await ctx.deps.providerLink.sharedKey(chatId, key);
    // The username signs the provider's callbacks; the token makes this chat's callback URL.
    // An empty username would make md5("") the signature: no username, no callbacks.
    await ctx.deps.providerLink.link(chatId, key, profile.username || undefined);
    ctx.deps.logger.info({ chatId }, "api key linked");
    // Masks only: the log never holds a key.
    await audit(ctx, before === undefined ? "key_linked" : "key_replaced", before, maskKey(key));
    if (before !== undefined) await announceSecurity(ctx, "pin-told-key", { what: "replaced" });
    await dropKeyMessage();
    const linked = ctx.t("key-linked", {
      name: html(profile.name),
      balance: profile.balance === null ? html(profile.balanceText) : rupiah(profile.balance, ctx.lang),
      mask: html(maskKey(key)),
    });
    await show(shared ? `${linked}\n\n${ctx.t("key-linked-shared", { count: shared.others })}` : linked);
    if (shared) await tellFirstHolder(ctx, shared, maskKey(key));
  } catch (err) {
    if (!keyMessageGone) await dropKeyMessage();
    if (err instanceof UpstreamRejected) {
      await show(ctx.t("key-rejected", { message: html(err.providerMessage) }));
    } else if (!(err instanceof UpstreamError) && !ctx.deps.store.canPersist()) {
      ctx.deps.logger.warn({ chatId, err }, "api key accepted but not saved: the store cannot write");
      await show(ctx.t("key-not-saved"));
    } else {
      ctx.deps.logger.warn({ chatId, err }, "api key check failed");
      await show(ctx.t("key-check-failed"));
    }
  }
}

export const linkModule: FeatureModule = {
  name: "link",
  composer: linkFeature,
  commands: { start: "anyone", kunci: "owner", keluar: "anyone" },
};

/**
 * A key that another chat already holds is a shared account or a leak: the chat that linked it first
 * is told at once, in its own language, who linked it now (mask only, never the key).
 */
async function tellFirstHolder(ctx: BotContext, shared: { first: number; others: number }, mask: string): Promise<void> {
  const from = ctx.from;
  const who = html([from?.first_name, from?.username ? `(@${from.username})` : undefined].filter(Boolean).join(" "));
  const text = ctx.translate(await langOf(ctx, shared.first), "key-shared-elsewhere", { mask: html(mask), who, count: shared.others + 1 });
  await ctx.api.sendMessage(shared.first, text).catch((err: unknown) => ctx.deps.logger.warn({ chatId: shared.first, err }, "shared-key notice not delivered"));
}
