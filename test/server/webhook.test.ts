/**
 * Telegram webhook mode (TELEGRAM_WEBHOOK_URL): setWebhook with a secret kept in DATA_DIR, updates
 * posted with that secret answered, without it refused; long polling deletes a leftover webhook first.
 */
import { stat } from "node:fs/promises";
import { freePort } from "../support/freePort.js";
import { join } from "node:path";
import type { Update } from "grammy/types";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { onPostgres } from "../support/pg.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function webhookWorld(): Promise<{ w: World; hook: string }> {
  const port = await freePort();
  const hook = `http://127.0.0.1:${port}/tg/updates`;
  w = await makeWorld({ env: { HTTP_PORT: String(port), TELEGRAM_WEBHOOK_URL: hook } });
  await w.app.start();
  return { w, hook };
}

const post = (url: string, update: Update, secret?: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}) },
    body: JSON.stringify(update),
  });

describe("webhook mode", () => {
  it("sets the webhook with a secret kept in DATA_DIR and answers updates posted with it", async () => {
    const { w, hook } = await webhookWorld();
    const set = w.fake.callsOf("setWebhook");
    expect(set).toHaveLength(1);
    expect(set[0]!.payload.url).toBe(hook);
    expect(set[0]!.payload.allowed_updates).toEqual(["message", "callback_query", "my_chat_member"]);
    const secret = String(set[0]!.payload.secret_token);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    // The file store's secret is a file only the bot reads; PostgreSQL's is a row every process shares.
    if (!onPostgres) expect((await stat(join(w.dir, "webhook-secret"))).mode & 0o777).toBe(0o600);
    expect(w.fake.callsOf("getUpdates")).toHaveLength(0);
    expect(w.fake.callsOf("deleteWebhook")).toHaveLength(0);

    const u = w.user({ languageCode: "en", firstName: "Rina" });
    const res = await post(hook, u.textUpdate("/start"), secret);
    expect(res.status).toBe(200);
    expect(w.fake.sentTo(u.chatId).map((c) => String(c.payload.text)).join("\n")).toContain("Hello, Rina");

    const health = (await (await fetch(new URL("/healthz", hook))).json()) as { ok: boolean; updatesLoopAlive: boolean };
    expect(health).toMatchObject({ ok: true, updatesLoopAlive: true });

    // A restart keeps the same secret (Telegram still sends the old one until setWebhook runs again).
    await w.restart();
    await w.app.start();
    expect(w.fake.callsOf("setWebhook")[1]!.payload.secret_token).toBe(secret);
  });

  it("an update Telegram delivers twice (its first answer timed out) is answered once", async () => {
    const { w, hook } = await webhookWorld();
    const secret = String(w.fake.callsOf("setWebhook")[0]!.payload.secret_token);
    const u = w.user({ languageCode: "en", firstName: "Rina" });
    const update = u.textUpdate("/start");
    expect((await post(hook, update, secret)).status).toBe(200);
    expect((await post(hook, update, secret)).status).toBe(200);
    expect(w.fake.sentTo(u.chatId).filter((c) => String(c.payload.text).includes("Hello, Rina"))).toHaveLength(1);
  });

  it("refuses a request without the right secret with 401 and does not handle it", async () => {
    const { w, hook } = await webhookWorld();
    const u = w.user({ languageCode: "en" });
    expect((await post(hook, u.textUpdate("/start"))).status).toBe(401);
    expect((await post(hook, u.textUpdate("/start"), "wrong-secret-wrong-secret-wrong-secret")).status).toBe(401);
    expect(w.fake.sentTo(u.chatId)).toEqual([]);
  });

  it("refuses a body larger than any update with 413", async () => {
    const { w, hook } = await webhookWorld();
    const secret = String(w.fake.callsOf("setWebhook")[0]!.payload.secret_token);
    const res = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
      body: JSON.stringify({ update_id: 1, pad: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });

  it("stops within 10 s: the server stops accepting and the store is flushed", async () => {
    const { w, hook } = await webhookWorld();
    const t0 = Date.now();
    await w.app.stop();
    expect(Date.now() - t0).toBeLessThan(10_000);
    await expect(fetch(hook, { method: "POST", body: "{}" })).rejects.toThrow();
  });
});

describe("long polling", () => {
  it("deletes a leftover webhook before the first getUpdates (a webhook makes polling fail with 409)", async () => {
    w = await makeWorld();
    await w.app.start();
    await w.fake.waitFor("getUpdates", 5_000, { answered: false });
    const del = w.fake.callsOf("deleteWebhook");
    expect(del).toHaveLength(1);
    expect(del[0]!.seq).toBeLessThan(w.fake.callsOf("getUpdates")[0]!.seq);
  });
});
