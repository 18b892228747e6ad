/**
 * Linking a chat to its own reseller api key: /start, /kunci (/key), /keluar (/logout), the key
 * message itself (deleted at once, checked with /get_profile), and keys pasted into groups.
 */
import { Composer } from "grammy";
import { UpstreamRejected } from "../../upstream/errors.js";
import { maskKey } from "../../store/crypto.js";
import type { BotContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { isPrivate } from "../guards.js";

/** One line, no spaces, plausible length. The provider does not document the key format. */
const KEY_SHAPE = /^[A-Za-z0-9._:+/=-]{8,256}$/;
/** In groups only long random-looking tokens are treated as leaked keys, not ordinary chatter. */
const LEAKED_KEY_SHAPE = /(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])\b[A-Za-z0-9_-]{24,}\b/;

export const linkFeature = new Composer<BotContext>();

linkFeature.command("start", async (ctx) => {
  const name = html(ctx.from?.first_name ?? "");
  if (!isPrivate(ctx)) {
    await ctx.reply(ctx.t("private-only"));
    return;
  }
  const chat = ctx.deps.store.getChat(ctx.chat.id);
  if (chat?.apiKeyEnc) {
    await ctx.reply(`${ctx.t("welcome", { name })}\n\n${ctx.t("welcome-linked", { mask: chat.keyMask ?? "" })}`);
    return;
  }
  ctx.deps.store.updateChat(ctx.chat.id, { awaitingKey: true, lang: ctx.lang });
  await ctx.reply(`${ctx.t("welcome", { name })}\n\n${ctx.t("welcome-ask-key")}`);
});

linkFeature.command(["kunci", "key"], async (ctx) => {
  if (!isPrivate(ctx)) {
    await ctx.reply(ctx.t("private-only"));
    return;
  }
  ctx.deps.store.updateChat(ctx.chat.id, { awaitingKey: true });
  await ctx.reply(ctx.t("key-ask"));
});

linkFeature.command(["keluar", "logout"], async (ctx) => {
  if (!isPrivate(ctx)) {
    await ctx.reply(ctx.t("private-only"));
    return;
  }
  const chat = ctx.deps.store.getChat(ctx.chat.id);
  if (!chat?.apiKeyEnc) {
    await ctx.reply(ctx.t("logout-none"));
    return;
  }
  ctx.deps.store.clearApiKey(ctx.chat.id);
  ctx.deps.store.updateChat(ctx.chat.id, { awaitingKey: false });
  await ctx.reply(ctx.t("logout-done"));
});

// A key pasted in a group: delete it if we can and tell the owner to treat it as leaked.
linkFeature
  .chatType(["group", "supergroup"])
  .on("message:text")
  .filter((ctx) => LEAKED_KEY_SHAPE.test(ctx.message.text), async (ctx) => {
    const deleted = await ctx.deleteMessage().then(
      () => true,
      () => false,
    );
    await ctx.reply(ctx.t("key-in-group", { deleted: deleted ? "yes" : "no" }));
  });

// In a private chat that is waiting for a key, the next plain text is the key.
linkFeature
  .chatType("private")
  .on("message:text")
  .filter(
    (ctx) => !ctx.message.text.startsWith("/") && isAwaitingKey(ctx),
    async (ctx) => {
      const raw = ctx.message.text.trim();
      if (!KEY_SHAPE.test(raw)) {
        await deleteKeyMessage(ctx);
        await ctx.reply(ctx.t("key-invalid-format"));
        return;
      }
      await linkKey(ctx, raw);
    },
  );

/** The key message goes only once the link is saved: a lost answer must never leave a deleted key and no link. */
async function deleteKeyMessage(ctx: BotContext): Promise<void> {
  const deleted = await ctx.deleteMessage().then(
    () => true,
    () => false,
  );
  if (!deleted) await ctx.reply(ctx.t("key-not-deleted"));
}

function isAwaitingKey(ctx: BotContext): boolean {
  const chat = ctx.deps.store.getChat(ctx.chat!.id);
  return !chat?.apiKeyEnc || chat.awaitingKey === true;
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
    ctx.deps.store.setApiKey(chatId, key);
    ctx.deps.store.updateChat(chatId, { awaitingKey: false, inactive: false });
    await ctx.deps.store.flush();
    ctx.deps.logger.info({ chatId }, "api key linked");
    await dropKeyMessage();
    await show(
      ctx.t("key-linked", {
        name: html(profile.name),
        balance: profile.balance === null ? html(profile.balanceText) : rupiah(profile.balance),
        mask: html(maskKey(key)),
      }),
    );
  } catch (err) {
    if (!keyMessageGone) await dropKeyMessage();
    if (err instanceof UpstreamRejected) {
      await show(ctx.t("key-rejected", { message: html(err.providerMessage) }));
    } else {
      ctx.deps.logger.warn({ chatId, err }, "api key check failed");
      await show(ctx.t("key-check-failed"));
    }
  }
}
