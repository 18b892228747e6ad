/**
 * Admin commands (Telegram user ids in ADMIN_IDS, private chat). Anyone else gets no answer at all,
 * as if the commands did not exist.
 *
 *   /admin                      what admins can do
 *   /broadcast (/siaran)        compose a message (text, or one photo with a caption) -> preview
 *                               exactly as recipients see it -> Send/Cancel -> delivered in the
 *                               background to every linked chat (jobs/broadcast.ts), with one
 *                               progress message and a summary. Formatting the admin applies in
 *                               Telegram (bold, links...) is kept through message entities; no HTML.
 *   /ceksaldo (/balances)       balance round: every linked chat gets its current balance, with a
 *                               warning where it is under its alert threshold; the admin a summary.
 *
 * The draft waits in the store (meta `broadcast:draft:<chat>`), so Send works after a restart.
 */
import { Composer } from "grammy";
import { broadcastKeyboard } from "../keyboards/admin.js";
import { cb, onCallback, type CallbackContext } from "../buttons.js";
import type { BotContext, BotConversation, ConvContext } from "../context.js";
import { cancelRow, now, STEP_TIMEOUT_MS } from "../flows/steps.js";
import { isPrivate } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { sendContent, type BroadcastContent } from "../../jobs/broadcastState.js";
import { commands } from "../../telegram/commands.js";


interface Draft {
  id: string;
  content: BroadcastContent;
}

const draftKey = (chatId: number) => `broadcast:draft:${chatId}`;

export function isAdmin(ctx: BotContext | ConvContext): boolean {
  return ctx.from !== undefined && ctx.deps.adminIds.includes(ctx.from.id) && isPrivate(ctx);
}

async function busyText(ctx: BotContext): Promise<string> {
  const p = await ctx.deps.broadcaster.progress();
  return ctx.t("broadcast-busy", { sent: p?.sent ?? 0, remaining: p?.remaining ?? 0 });
}

async function openBroadcast(ctx: BotContext): Promise<void> {
  const broadcaster = ctx.deps.broadcaster;
  if (await broadcaster.isRunning()) {
    // Left unfinished by an error or a start without resume(): asking again picks it up.
    if (!broadcaster.delivering) await broadcaster.resume();
    await ctx.reply(await busyText(ctx));
    return;
  }
  await ctx.conversation.enter("broadcast");
}

/** Waits for the message to broadcast: text or a photo. Like waitStep, but photos are welcome. */
async function waitContent(
  conversation: BotConversation,
  ctx: ConvContext,
): Promise<{ content: BroadcastContent; ctx: ConvContext }> {
  const startedAt = await now(conversation, ctx);
  for (;;) {
    const next = await conversation.wait();
    const at = await now(conversation, next);
    const m = next.message;
    const isCommand = m?.text?.startsWith("/") ?? false;
    if (at - startedAt > STEP_TIMEOUT_MS) {
      if (next.callbackQuery) await next.answerCallbackQuery();
      await next.reply(next.t("step-timeout"));
      await conversation.halt({ next: isCommand });
    }
    if (isCommand || cb.menu.decode(next.callbackQuery?.data ?? "")) await conversation.halt({ next: true });
    if (next.callbackQuery) await conversation.skip({ next: true });
    if (m?.text) {
      return { content: { kind: "text", text: m.text, ...(m.entities ? { entities: m.entities } : {}) }, ctx: next };
    }
    const photo = m?.photo?.[m.photo.length - 1];
    if (m && photo) {
      const content: BroadcastContent = {
        kind: "photo",
        fileId: photo.file_id,
        ...(m.caption !== undefined ? { caption: m.caption } : {}),
        ...(m.caption_entities ? { captionEntities: m.caption_entities } : {}),
      };
      return { content, ctx: next };
    }
    await next.reply(next.t("broadcast-unsupported"));
  }
}

async function broadcastFlow(conversation: BotConversation, ctx: ConvContext): Promise<void> {
  await ctx.reply(ctx.t("broadcast-ask"), { reply_markup: cancelRow(ctx) });
  const { content, ctx: next } = await waitContent(conversation, ctx);
  const chatId = next.chat!.id;
  const { id, count } = await conversation.external(async () => {
    const draft: Draft = { id: ctx.deps.clock.now().toString(36), content };
    await ctx.deps.store.setMeta(draftKey(chatId), draft);
    return { id: draft.id, count: (await ctx.deps.broadcaster.recipients(ctx.chat!.id)).length };
  });
  // The preview is sent exactly like every copy will be.
  await sendContent(next.api, chatId, content);
  await next.reply(next.t("broadcast-confirm", { count }), { reply_markup: broadcastKeyboard(next, id) });
}

async function confirmBroadcast(ctx: CallbackContext<BotContext>, { draft: draftId }: { draft: string }): Promise<void> {
  await ctx.answerCallbackQuery();
  const chatId = ctx.chat!.id;
  const { store, broadcaster } = ctx.deps;
  const draft = await store.getMeta<Draft>(draftKey(chatId));
  if (!draft || draft.id !== draftId) {
    await ctx.editMessageText(ctx.t("broadcast-draft-gone")).catch(() => undefined);
    return;
  }
  const started = await broadcaster.start(chatId, ctx.lang, draft.content);
  if (!started.ok) {
    // A running broadcast keeps the draft: Send works again once it finished.
    await ctx.reply(started.reason === "running" ? await busyText(ctx) : ctx.t("broadcast-no-recipients"));
    return;
  }
  await store.setMeta(draftKey(chatId), undefined);
  await ctx.editMessageText(ctx.t("broadcast-started", { count: started.total })).catch(() => undefined);
}

async function cancelBroadcast(ctx: CallbackContext<BotContext>, { draft }: { draft: string }): Promise<void> {
  await ctx.answerCallbackQuery();
  const chatId = ctx.chat!.id;
  if ((await ctx.deps.store.getMeta<Draft>(draftKey(chatId)))?.id === draft) await ctx.deps.store.setMeta(draftKey(chatId), undefined);
  await ctx.editMessageText(ctx.t("broadcast-cancelled")).catch(() => undefined);
}

async function balanceRound(ctx: BotContext): Promise<void> {
  const round = ctx.deps.balanceRound;
  if (round.isRunning()) {
    await ctx.reply(ctx.t("admin-round-busy"));
    return;
  }
  const count = (await ctx.deps.store.linkedChats()).length;
  if (count === 0) {
    await ctx.reply(ctx.t("admin-round-none"));
    return;
  }
  await ctx.reply(ctx.t("admin-round-started", { count }));
  await round.start(ctx.chat!.id, ctx.lang);
}

const composer = new Composer<BotContext>();
// Not an admin (or not in a private chat): the update stops here without a word.
composer.command([...commands.admin, ...commands.siaran, ...commands.ceksaldo], (ctx, next) => (isAdmin(ctx) ? next() : undefined));

composer.command(commands.admin, (ctx) => ctx.reply(ctx.t("admin-help")));
composer.command(commands.siaran, openBroadcast);
composer.command(commands.ceksaldo, balanceRound);
// A non-admin pressing an admin button gets a silent answer.
onCallback(composer, cb.broadcastSend, (ctx, f) => (isAdmin(ctx) ? confirmBroadcast(ctx, f) : ctx.answerCallbackQuery()));
onCallback(composer, cb.broadcastCancel, (ctx, f) => (isAdmin(ctx) ? cancelBroadcast(ctx, f) : ctx.answerCallbackQuery()));

export const adminModule: FeatureModule = {
  name: "admin",
  composer,
  commands: { admin: "anyone", siaran: "anyone", ceksaldo: "anyone" },
  buttons: {
    broadcastSend: "anyone",
    broadcastCancel: "anyone",
  },
  flows: [{ id: "broadcast", builder: broadcastFlow }],
};
