/**
 * A shop in a world: Rina's linked chat owns it, Sari's chat is its customer. Orders start where the
 * catalogue's "Bayar dengan QRIS" hands over (startPayment, answering in the customer's chat through
 * the bot's own Api), then everything runs through the built app: its watcher, the order job, the sandbox.
 */
import { expect } from "vitest";
import type { BotContext } from "../../src/bot/context.js";
import { startPayment, type OrderInput } from "../../src/bot/shop/shopPay.js";
import type { OrderDoc } from "../../src/domain/shop/orders.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";

export interface Shop {
  w: World;
  owner: FakeUser;
  customer: FakeUser;
}

export async function openShop(opts: WorldOptions = {}): Promise<Shop> {
  const w = await makeWorld({ watcher: true, ...opts });
  await w.app.start();
  const owner = await w.linkedUser({ firstName: "Rina" });
  const customer = w.user({ firstName: "Sari" });
  await w.store.updateChat(customer.chatId, { customerOf: { owner: owner.chatId, code: "RINA2026SHOP" }, lang: "id" });
  return { w, owner, customer };
}

/** The catalogue's hand-over for a PLN 20.000 token (cost 20.113 in the sandbox), 1% markup, QRIS fee on the customer. */
export function plnOrder(shop: Shop, over: Partial<OrderInput> = {}): OrderInput {
  return {
    owner: shop.owner.chatId,
    customer: shop.customer.chatId,
    customerName: "Sari",
    productCode: "PLN20",
    productName: "PLN 20.000",
    target: "12345678901",
    price: 21_000,
    cost: 20_113,
    fee: 147,
    feePayer: "customer",
    lang: "id",
    ...over,
  };
}

/** "Bayar dengan QRIS" in the customer's chat. */
export async function pay(shop: Shop, input: OrderInput): Promise<OrderDoc> {
  const { w } = shop;
  const chatId = input.customer;
  const ctx = {
    deps: w.deps,
    lang: input.lang,
    chat: { id: chatId, type: "private" },
    reply: (text: string, other?: object) => w.bot.api.sendMessage(chatId, text, other),
    replyWithPhoto: (photo: never, other?: object) => w.bot.api.sendPhoto(chatId, photo, other),
  } as unknown as BotContext;
  const before = new Set((await w.deps.shopOrders.listByCustomer(input.owner, chatId)).map((d) => d.id));
  await startPayment(ctx, input);
  const made = (await w.deps.shopOrders.listByCustomer(input.owner, chatId)).filter((d) => !before.has(d.id));
  expect(made).toHaveLength(1);
  return made[0]!;
}

/** Moves the clock `ms` in steps, letting the watcher and the order job finish each step's work. */
export async function run(w: World, ms: number, stepMs = 500): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    await w.clock.advance(Math.min(stepMs, ms - t));
    for (let i = 0; i < 3; i++) {
      await w.watcher!.whenIdle();
      await w.deps.shopOrderJob.idle();
      await w.storeSettled();
    }
  }
}

export async function stateOf(w: World, orderRef: string): Promise<string | undefined> {
  return (await w.deps.shopOrders.get(orderRef))?.state;
}

/** The sandbox's id of the order's deposit. */
export async function depositIdOf(w: World, doc: OrderDoc): Promise<string> {
  const tx = await w.store.getTx(doc.value.depositRef);
  expect(tx?.upstreamId).toBeDefined();
  return tx!.upstreamId!;
}

/** Purchases the sandbox received for the order's product and target. */
export function purchasesOf(w: World, target: string): number {
  return w.sandbox.calls("/transaksi/create").filter((c) => c.body.target === target).length;
}

/** What a chat was shown: texts and captions. */
export function shown(u: FakeUser): string[] {
  return u.messages().filter((m) => m.from === "bot").map((m) => m.text ?? m.caption ?? "");
}
