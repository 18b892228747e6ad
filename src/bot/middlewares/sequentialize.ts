/**
 * The runner processes updates concurrently; one chat's updates still run one after another, except
 * the ways out (/batal, /menu, Cancel): they must get through while a slow read holds the chat.
 */
import { sequentialize } from "@grammyjs/runner";
import type { Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { isWayOut } from "./wayOuts.js";

export function sequentializeChats(): Middleware<BotContext> {
  return sequentialize((ctx) => (isWayOut(ctx.update) ? undefined : (ctx.chat?.id.toString() ?? ctx.from?.id.toString())));
}
