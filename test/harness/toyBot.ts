/**
 * A tiny bot used only by the harness self-tests. It exercises the features real tests rely on:
 * inline keyboards and callback edits, photo uploads (QR PNG), a conversation, formatted text.
 */
import { Bot, InlineKeyboard, InputFile, type BotConfig, type Context } from "grammy";
import {
  conversations,
  createConversation,
  type Conversation,
  type ConversationFlavor,
} from "@grammyjs/conversations";
import QRCode from "qrcode";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../support/botInfo.js";

export type ToyContext = ConversationFlavor<Context>;

async function askName(conversation: Conversation<ToyContext, Context>, ctx: Context): Promise<void> {
  await ctx.reply("What is your name?");
  const answer = await conversation.waitFor("message:text");
  await answer.reply(`Nice to meet you, ${answer.message.text}!`);
}

export function createToyBot(client: BotConfig<ToyContext>["client"]): Bot<ToyContext> {
  const bot = new Bot<ToyContext>(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO, client });

  bot.use(conversations());
  bot.use(createConversation(askName, "askName"));

  bot.command("start", (ctx) =>
    ctx.reply("Welcome! Pick a product:", {
      reply_markup: new InlineKeyboard()
        .text("Pulsa 10k", "buy:pulsa10")
        .text("Data 1GB", "buy:data1")
        .row()
        .url("Help", "https://example.com/help"),
    }),
  );

  bot.callbackQuery(/^buy:(.+)$/, async (ctx) => {
    await ctx.answerCallbackQuery({ text: "Noted" });
    await ctx.editMessageText(`You chose ${ctx.match[1]}. Confirm?`, {
      reply_markup: new InlineKeyboard().text("Confirm", "confirm").text("Cancel", "cancel"),
    });
  });

  bot.callbackQuery("confirm", async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.editMessageText("Order placed.");
    await ctx.reply("Thank you!");
  });

  bot.callbackQuery("cancel", async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.deleteMessage();
  });

  bot.command("qr", async (ctx) => {
    const png = await QRCode.toBuffer(ctx.match || "empty", { type: "png", margin: 2, scale: 6 });
    await ctx.replyWithPhoto(new InputFile(png, "qr.png"), {
      caption: "Scan to pay",
      reply_markup: new InlineKeyboard().text("Paid", "paid"),
    });
  });

  bot.command("name", (ctx) => ctx.conversation.enter("askName"));

  bot.command("price", (ctx) => ctx.reply(ctx.match, { parse_mode: "MarkdownV2" }));

  bot.command("menu", (ctx) =>
    ctx.reply("Main menu", { reply_markup: { keyboard: [[{ text: "Saldo" }, { text: "Riwayat" }]], resize_keyboard: true } }),
  );

  bot.on("message:text", (ctx) => ctx.reply(`echo: ${ctx.message.text}`));

  return bot;
}
