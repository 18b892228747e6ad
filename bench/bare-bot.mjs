/* global process */
// The baseline for start-up: a bare grammY bot answering /start over long polling. Plain JavaScript,
// run by node directly, as the bot runs compiled (dist/main.js): neither pays for a TypeScript loader.
import { Bot } from "grammy";

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API_ROOT } });
bot.command("start", (ctx) => ctx.reply("Halo!"));
process.once("SIGTERM", () => void bot.stop().then(() => process.exit(0)));
void bot.start();
