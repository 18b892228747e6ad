import { describe, expect, it } from "vitest";
import { Context, type Api } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import { Composer } from "../../src/bot/composer.js";

const me = { id: 1, is_bot: true, first_name: "B", username: "b_bot" } as UserFromGetMe;
let updateId = 1;
function textContext(text: string): Context {
  const chat = { id: 7, type: "private" as const, first_name: "T" };
  const entities = text.startsWith("/") ? [{ type: "bot_command" as const, offset: 0, length: text.split(" ")[0]!.length }] : undefined;
  const message = { message_id: updateId, date: 0, chat, from: { id: 7, is_bot: false, first_name: "T" }, text, entities };
  return new Context({ update_id: updateId++, message } as Update, {} as Api, me);
}
function callbackContext(data: string): Context {
  const from = { id: 7, is_bot: false, first_name: "T" };
  return new Context({ update_id: updateId++, callback_query: { id: "q", from, chat_instance: "c", data } } as Update, {} as Api, me);
}

async function run(c: Composer<Context>, ctx: Context): Promise<boolean> {
  let passed = false;
  await c.middleware()(ctx, async () => void (passed = true));
  return passed;
}

describe("Composer (filters composed once)", () => {
  it("routes commands, callback data and text as grammY does, and passes on what nothing took", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    c.command(["saldo", "balance"], (ctx) => void seen.push(`cmd:${ctx.match}`));
    c.callbackQuery(/^pr:(\d+)$/, (ctx) => void seen.push(`cb:${ctx.match[1]}`));
    c.hears("halo", () => void seen.push("hears"));
    c.on("message:text", async (_ctx, next) => {
      seen.push("text");
      await next();
    });

    expect(await run(c, textContext("/saldo 5"))).toBe(false);
    expect(await run(c, callbackContext("pr:12"))).toBe(false);
    expect(await run(c, textContext("halo"))).toBe(false);
    expect(await run(c, textContext("apa"))).toBe(true);
    expect(await run(c, callbackContext("other"))).toBe(true);
    expect(seen).toEqual(["cmd:5", "cb:12", "hears", "text"]);
  });

  it("runs middleware registered on a filter's composer after the filter, in order, with async predicates", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    const privateChats = c.filter(async (ctx) => ctx.chat?.type === "private");
    privateChats.command("menu", () => void seen.push("menu"));
    privateChats.use(() => void seen.push("private rest"));
    c.use(() => void seen.push("outside"));

    await run(c, textContext("/menu"));
    await run(c, textContext("hi"));
    await run(c, callbackContext("x"));
    expect(seen).toEqual(["menu", "private rest", "outside"]);
  });

  it("lets a handler's error reach the caller", async () => {
    const c = new Composer<Context>();
    c.command("boom", () => {
      throw new Error("boom");
    });
    await expect(run(c, textContext("/boom"))).rejects.toThrow("boom");
  });
  it("takes a command addressed to this bot by name, not to another bot, and sets the match", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    c.command("saldo", (ctx) => void seen.push(`saldo:${ctx.match}`));
    c.command("harga", (ctx) => void seen.push(`harga:${ctx.match}`));
    expect(await run(c, textContext("/saldo@B_bot  x y"))).toBe(false);
    expect(await run(c, textContext("/harga@other_bot"))).toBe(true);
    expect(await run(c, textContext("/harga pulsa"))).toBe(false);
    expect(await run(c, textContext("/nothing"))).toBe(true);
    expect(seen).toEqual(["saldo:x y", "harga:pulsa"]);
  });

  it("refuses a second next() and sees middleware added to a used composer later", async () => {
    const c = new Composer<Context>();
    const later = c.use(async (_ctx, next) => {
      await next();
    });
    c.use(async (_ctx, next) => {
      await next();
      await next();
    });
    const seen: string[] = [];
    later.use(async (_ctx, next) => {
      seen.push("later");
      await next();
    });
    await expect(run(c, textContext("hi"))).rejects.toThrow("`next` already called before!");
    expect(seen).toEqual(["later"]);
  });

  it("runs what follows an error boundary after it, and hands its errors to the handler only", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    c.errorBoundary(
      (err) => void seen.push(`caught:${(err.error as Error).message}`),
      (ctx, next) => (ctx.message?.text === "boom" ? Promise.reject(new Error("boom")) : next()),
    );
    c.use(() => void seen.push("after"));
    await run(c, textContext("boom"));
    await run(c, textContext("fine"));
    expect(seen).toEqual(["caught:boom", "after"]);
  });
  it("sees middleware registered on a nested composer after the parent already ran", async () => {
    const seen: string[] = [];
    const c = new Composer<Context>();
    const texts = c.on("message:text");
    expect(await run(c, textContext("hi"))).toBe(true);
    texts.use(() => void seen.push("text"));
    expect(await run(c, textContext("hi"))).toBe(false);
    expect(seen).toEqual(["text"]);
  });
});
