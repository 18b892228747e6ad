/**
 * The playground's page and its small JSON + server-sent-events API, on 127.0.0.1. The page plays
 * the Telegram app: what a user types or taps becomes an update in the emulator, which the bot
 * fetches by long polling as from Telegram; what the bot sends comes back live over /api/events.
 */
import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import type { Chat, Message, MessageEntity, User } from "grammy/types";
import { projectFile } from "../config/projectFiles.js";
import { imageSize, type BotApiEmulator } from "./botApi/index.js";
import { messageView } from "./view.js";
import { startPayload } from "./startLink.js";

export interface PlaygroundUser {
  id: number;
  name: string;
  /** What this user shows: a linked reseller, a newcomer, the admin, a reseller's cashier, a shop's customer, a reseller's downline (the page words it). */
  role: "reseller" | "newcomer" | "admin" | "cashier" | "customer" | "downline";
  lang: "id" | "en";
}

/** A user as the page shows them now: the bot's language for the chat, and whether a key is linked. */
export interface UserView extends PlaygroundUser {
  linked: boolean;
  /** The user blocked the bot (the page offers to unblock it). */
  blocked: boolean;
}

/** One open transaction in the sandbox panel, with who it is for: the panel names who pays and who sold. */
export interface PendingEntry {
  refId: string;
  /** The chat whose key and balance it is on (a shop's owner for its orders). */
  chatId: number;
  kind: string;
  status: string;
  title?: string;
  target?: string;
  amount: number;
  /** A deposit: the chat that scans and pays its QR (the reseller's own, or the shop's customer). */
  payer?: number;
  /** Part of a shop order: its customer and product. */
  order?: { customer: number; product: string };
  /** Sold by a staff member (a cashier) on the owner's key. */
  by?: number;
}

/** What the page's sandbox panel can do; index.ts wires it to the app's sandbox and store. */
export interface SandboxPanel {
  /** Open transactions of every chat, newest first. */
  pending(): Promise<PendingEntry[]>;
  /** A purchase resolves with `outcome`; a paid deposit (waiting for settlement) settles now ("success" only). */
  settle(refId: string, outcome: "success" | "failed"): Promise<boolean>;
  payDeposit(refId: string): Promise<boolean>;
  latencyMs(): number;
  setLatency(ms: number): void;
}

export interface WebOptions {
  fake: BotApiEmulator;
  users: PlaygroundUser[];
  panel: SandboxPanel;
  /** The user picked a language: the bot's stored choice follows, as after /bahasa. */
  onLanguage(userId: number, lang: "id" | "en"): void;
  /** The chat as the bot has it now (its language after /bahasa, a linked key); undefined: not yet known. */
  chatState(userId: number): Promise<{ lang?: "id" | "en"; linked: boolean }>;
  /** The sandbox key the page's first-visit hint gives a newcomer to paste. */
  newcomerKey: string;
  /**
   * Which playground this is: a new one after `--reset`. An open tab reconnecting to its feed compares
   * it with the one it loaded and reloads its chats (message ids start over after a reset).
   */
  generation: string;
  host: string;
  port: number;
}

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

/** The page's files: src/playground/page in the checkout, also when running the bundled dist/. */
export const PAGE_DIR = projectFile("src/playground/page");
const PAGE_FILES: Record<string, string> = {
  "/": "index.html",
  "/app.js": "app.js",
  "/words.js": "words.js",
  "/panel.js": "panel.js",
  "/startLink.js": "startLink.js",
  "/style.css": "style.css",
  "/favicon.svg": "favicon.svg",
  // Browsers ask for /favicon.ico whatever the page links; an SVG answers it too.
  "/favicon.ico": "favicon.svg",
};
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};

/** The largest photo the page's attach button takes (Telegram's own limit for a photo is 10 MB). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const PHOTO_TOO_BIG = "a photo of at most 5 MB";

export async function startWeb(opts: WebOptions): Promise<WebServer> {
  const { fake, users } = opts;
  const byId = new Map(users.map((u) => [u.id, u]));
  /** callback_query id -> chat, so an answer's toast shows in the chat that tapped. */
  const queries = new Map<string, number>();
  let queryCounter = 0;
  const subscribers = new Set<(event: string, data: unknown) => void>();
  const publish = (event: string, data: unknown) => {
    for (const s of subscribers) s(event, data);
  };
  const unsubscribe = fake.onChange((e) => {
    if (e.type === "message") publish("message", messageView(e.message));
    else if (e.type === "commands") publish("commands", {});
    else {
      const chatId = queries.get(e.callbackQueryId);
      queries.delete(e.callbackQueryId);
      if (chatId !== undefined && e.text) publish("toast", { chatId, text: e.text, alert: e.showAlert });
    }
  });

  const userOf = (id: string): PlaygroundUser | undefined => byId.get(Number(id));
  const tgUser = (u: PlaygroundUser): User => ({ id: u.id, is_bot: false, first_name: u.name, language_code: u.lang });
  const tgChat = (u: PlaygroundUser): Chat.PrivateChat => ({ id: u.id, type: "private", first_name: u.name });
  for (const u of users) fake.registerChat(tgChat(u));

  const app = new Hono();
  // Only this machine's browser drives it: another site cannot post a form here (JSON only, which
  // needs a CORS preflight no one answers), nor reach it by a DNS name pointed at 127.0.0.1.
  app.use("*", async (c, next) => {
    const host = (c.req.header("host") ?? "").replace(/:\d+$/, "");
    if (host !== "127.0.0.1" && host !== "localhost") return c.text("The playground answers on 127.0.0.1 only", 403);
    if (c.req.method !== "GET" && !(c.req.header("content-type") ?? "").startsWith("application/json")) {
      return c.json({ error: "JSON only" }, 415);
    }
    await next();
  });
  // Text and taps are small; only the attach route takes a photo (base64 in JSON: 4/3 of its bytes).
  const smallBody = bodyLimit({ maxSize: 16 * 1024 });
  const photoBody = bodyLimit({ maxSize: Math.ceil(PHOTO_MAX_BYTES / 3) * 4 + 8 * 1024, onError: (c) => c.json({ error: PHOTO_TOO_BIG }, 413) });
  app.use("/api/*", (c, next) => (/^\/api\/chat\/[^/]+\/photo$/.test(c.req.path) ? photoBody(c, next) : smallBody(c, next)));
  for (const [path, file] of Object.entries(PAGE_FILES)) {
    app.get(path, async (c) => {
      const body = await readFile(join(PAGE_DIR, file), "utf8");
      return c.body(body, 200, { "content-type": TYPES[file.split(".").pop()!]!, "cache-control": "no-store" });
    });
  }

  // The bot's language for the chat (a /bahasa in the chat) becomes the page's, and the user's
  // language_code from then on, as a Telegram client set to that language would send.
  const view = async (u: PlaygroundUser): Promise<UserView> => {
    const now = await opts.chatState(u.id);
    if (now.lang !== undefined) u.lang = now.lang;
    return { ...u, linked: now.linked, blocked: fake.isBlocked(u.id) };
  };

  /** Writing to a bot one blocked unblocks it first (Telegram's Restart button does the same). */
  const unblockToWrite = (u: PlaygroundUser) => fake.setBlocked(tgUser(u), tgChat(u), false);

  app.get("/api/users", async (c) => {
    const list: UserView[] = [];
    for (const u of users) list.push(await view(u));
    return c.json({ users: list, newcomerKey: opts.newcomerKey, generation: opts.generation, botUsername: fake.botInfo.username });
  });

  app.get("/api/chat/:user", async (c) => {
    const u = userOf(c.req.param("user"));
    if (!u) return c.json({ error: "no such user" }, 404);
    const user = await view(u);
    return c.json({
      user,
      messages: fake.visibleMessages(u.id).map(messageView),
      commands: fake.commandsFor(u.lang, u.id),
    });
  });

  /** A text from `u`, as Telegram delivers it (a leading /command gets its entity). */
  const pushText = (u: PlaygroundUser, text: string): number => {
    unblockToWrite(u);
    const entities: MessageEntity[] = [];
    const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
    const replyTo = fake.takeForceReply(u.id);
    if (command) entities.push({ type: "bot_command", offset: 0, length: command[0].length });
    const message = {
      message_id: fake.nextMessageId(u.id),
      from: tgUser(u),
      chat: tgChat(u),
      date: Math.floor(Date.now() / 1000),
      text,
      ...(entities.length > 0 ? { entities } : {}),
      // As a Telegram app does: the bot's force_reply puts the next text typed in reply to it.
      ...(replyTo && !replyTo.deleted ? { reply_to_message: replyTo.message } : {}),
    } as Message.TextMessage & { chat: Chat.PrivateChat; from: User };
    fake.pushUpdate({ message });
    return message.message_id;
  };

  app.post("/api/chat/:user/send", async (c) => {
    const u = userOf(c.req.param("user"));
    const body = await c.req.json<{ text?: unknown }>().catch(() => ({ text: undefined }));
    const text = typeof body.text === "string" ? body.text.trim() : "";
    if (!u || text === "" || text.length > 4096) return c.json({ error: "text of 1-4096 characters" }, 400);
    return c.json({ ok: true, messageId: pushText(u, text) });
  });

  // A t.me link of this bot opened in `user`'s chat (a link or URL button, an invitation forwarded):
  // Telegram starts the bot there with the link's payload, as if the user pressed START.
  app.post("/api/chat/:user/open", async (c) => {
    const u = userOf(c.req.param("user"));
    const body = await c.req.json<{ url?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    const payload = typeof body.url === "string" ? startPayload(body.url, fake.botInfo.username) : undefined;
    if (!u || payload === undefined) return c.json({ error: "a start link of this bot" }, 400);
    return c.json({ ok: true, messageId: pushText(u, `/start ${payload}`) });
  });

  // The attach button: a PNG or JPEG (base64) and an optional caption, delivered as Telegram
  // delivers a user's photo, so the bot gets a file_id it can send on (a /siaran photo).
  app.post("/api/chat/:user/photo", async (c) => {
    const u = userOf(c.req.param("user"));
    const body = await c.req.json<{ data?: unknown; caption?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    if (!u) return c.json({ error: "no such user" }, 404);
    const bytes = typeof body.data === "string" ? Buffer.from(body.data, "base64") : Buffer.alloc(0);
    const caption = typeof body.caption === "string" ? body.caption.trim() : "";
    if (bytes.length === 0) return c.json({ error: "data: the image, base64" }, 400);
    if (caption.length > 1024) return c.json({ error: "a caption of at most 1024 characters" }, 400);
    if (bytes.length > PHOTO_MAX_BYTES) return c.json({ error: PHOTO_TOO_BIG }, 413);
    if (!imageSize(bytes)) return c.json({ error: "PNG or JPEG images only" }, 415);
    unblockToWrite(u);
    const message = {
      message_id: fake.nextMessageId(u.id),
      from: tgUser(u),
      chat: tgChat(u),
      date: Math.floor(Date.now() / 1000),
      photo: fake.storeUserPhoto(bytes),
      ...(caption !== "" ? { caption } : {}),
    } as Message.PhotoMessage & { chat: Chat.PrivateChat; from: User };
    fake.pushUpdate({ message });
    return c.json({ ok: true, messageId: message.message_id });
  });

  app.post("/api/chat/:user/press", async (c) => {
    const u = userOf(c.req.param("user"));
    const body = await c.req.json<{ messageId?: unknown; data?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    const target = u && fake.message(u.id, Number(body.messageId));
    if (!u || !target || target.deleted || typeof body.data !== "string") return c.json({ error: "no such button" }, 400);
    // Only data the message really carries, as Telegram only sends what the button holds.
    const exists = target.inlineKeyboard?.some((row) => row.some((b) => "callback_data" in b && b.callback_data === body.data));
    if (!exists) return c.json({ error: "no such button" }, 400);
    unblockToWrite(u);
    const id = `pg${u.id}${String(++queryCounter).padStart(6, "0")}`;
    queries.set(id, u.id);
    fake.pushUpdate({
      callback_query: { id, from: tgUser(u), message: target.message, chat_instance: String(u.id * 7 + 13), data: body.data },
    });
    return c.json({ ok: true });
  });

  // Blocking the bot, as from the chat's menu in Telegram: the bot hears my_chat_member "kicked" and
  // its sends there are refused (403) until the user unblocks it or writes again.
  app.post("/api/chat/:user/block", async (c) => {
    const u = userOf(c.req.param("user"));
    const body = await c.req.json<{ blocked?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    if (!u || typeof body.blocked !== "boolean") return c.json({ error: "blocked is true or false" }, 400);
    fake.setBlocked(tgUser(u), tgChat(u), body.blocked);
    return c.json({ ok: true, blocked: fake.isBlocked(u.id) });
  });

  app.post("/api/chat/:user/lang", async (c) => {
    const u = userOf(c.req.param("user"));
    const body = await c.req.json<{ lang?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    if (!u || (body.lang !== "id" && body.lang !== "en")) return c.json({ error: "lang is id or en" }, 400);
    u.lang = body.lang;
    opts.onLanguage(u.id, u.lang);
    return c.json({ ok: true, commands: fake.commandsFor(u.lang, u.id) });
  });

  app.get("/api/file/:chat/:message", (c) => {
    const m = fake.message(Number(c.req.param("chat")), Number(c.req.param("message")));
    if (!m?.file) return c.json({ error: "no file" }, 404);
    const bytes = m.file.bytes;
    const view = messageView(m);
    const type = isPng(bytes) ? "image/png" : isJpeg(bytes) ? "image/jpeg" : m.file.filename?.endsWith(".csv") ? "text/csv" : "application/octet-stream";
    const headers: Record<string, string> = { "content-type": type, "cache-control": "no-store" };
    if (!view.file?.image) headers["content-disposition"] = `attachment; filename="${(view.file?.name ?? "file").replace(/[^\w.-]/g, "_")}"`;
    return c.body(new Uint8Array(bytes), 200, headers);
  });

  app.get("/api/sandbox", async (c) => c.json({ pending: await opts.panel.pending(), latencyMs: opts.panel.latencyMs() }));
  app.post("/api/sandbox/settle", async (c) => {
    const body = await c.req.json<{ refId?: unknown; outcome?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    if (typeof body.refId !== "string" || (body.outcome !== "success" && body.outcome !== "failed")) {
      return c.json({ error: "refId and outcome (success|failed)" }, 400);
    }
    return c.json({ ok: await opts.panel.settle(body.refId, body.outcome) });
  });
  app.post("/api/sandbox/pay", async (c) => {
    const body = await c.req.json<{ refId?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    if (typeof body.refId !== "string") return c.json({ error: "refId" }, 400);
    return c.json({ ok: await opts.panel.payDeposit(body.refId) });
  });
  app.post("/api/sandbox/latency", async (c) => {
    const body = await c.req.json<{ ms?: unknown }>().catch(() => ({}) as Record<string, unknown>);
    const ms = Number(body.ms);
    if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) return c.json({ error: "ms: 0-60000" }, 400);
    opts.panel.setLatency(ms);
    return c.json({ ok: true });
  });

  app.get("/api/events", (c) =>
    streamSSE(c, async (stream) => {
      const queue: { event: string; data: string }[] = [];
      let wake: (() => void) | undefined;
      const push = (event: string, data: unknown) => {
        queue.push({ event, data: JSON.stringify(data) });
        wake?.();
      };
      subscribers.add(push);
      stream.onAbort(() => {
        subscribers.delete(push);
        wake?.();
      });
      // A tab that lost the feed (a restart) comes back within a second and catches up from here.
      await stream.writeSSE({ event: "hello", data: JSON.stringify({ generation: opts.generation }), retry: 1000 });
      while (!stream.aborted && !stream.closed) {
        const next = queue.shift();
        if (next) {
          await stream.writeSSE(next);
          continue;
        }
        // A comment line every 15 s keeps proxies and the browser from dropping the stream.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          wake = () => {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          };
        });
        if (queue.length === 0 && !stream.aborted) await stream.write(": ping\n\n");
      }
      subscribers.delete(push);
    }),
  );

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: opts.host, port: opts.port }, () => resolve(s as Server));
    (s as Server).once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host}:${port}/`,
    close: async () => {
      unsubscribe();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

const isPng = (b: Buffer) => b.length > 8 && b.readUInt32BE(0) === 0x89504e47;
const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8;
