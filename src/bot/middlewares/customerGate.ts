/**
 * A shop's customer chat reaches only the shop (features/shopfront.ts): never a reseller's command,
 * flow, button or key handling, whatever it types or forges. A shop link (`/start <code>`) opened in
 * any private chat goes to the shop too, which decides whether the chat may become its customer.
 * An owner's staff invitation (`/start staff_…`) passes on: the owner chose this person, whoever it is.
 * Everything else passes on untouched. While the store cannot be read, whose chat it is cannot be
 * known: the update passes on as every update does then (help, the menu and the language picker answer;
 * whatever needs the chat's record, a reseller's data included, hears that storage is unavailable).
 */
import { Composer, type ErrorHandler, type Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { shopStartCode } from "../shop/shopfront.js";
import { INVITE_PREFIX } from "../../domain/staff.js";

const START_PAYLOAD = /^\/start(?:@\w+)?\s+(\S+)/i;

/** A staff invitation link opened (its `/start` payload). */
function opensInvitation(text: string | undefined): boolean {
  return START_PAYLOAD.exec(text ?? "")?.[1]?.startsWith(INVITE_PREFIX) === true;
}

/** Whether the chat is a shop's customer; false while its record cannot be read. */
function isCustomer(ctx: BotContext): boolean {
  try {
    return ctx.role.kind === "customer";
  } catch (err) {
    if (ctx.deps.store.canPersist()) throw err;
    return false;
  }
}

/** `shopfront`: the modules of the list's shopfront stage (the shop's front, shop/shopfront.ts). */
export function customerGate(onError: ErrorHandler<BotContext>, shopfront: readonly Middleware<BotContext>[]): Middleware<BotContext> {
  const front = new Composer<BotContext>();
  front.errorBoundary(onError, ...shopfront);
  const run = front.middleware();
  const stop = (): Promise<void> => Promise.resolve();
  return (ctx, next) => {
    if (ctx.chat?.type !== "private") return next();
    const opensShop = shopStartCode(ctx.message?.text) !== undefined;
    if (opensShop || (isCustomer(ctx) && !opensInvitation(ctx.message?.text))) return run(ctx, stop);
    return next();
  };
}
