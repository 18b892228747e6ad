/**
 * The webhook faces the internet: a request with the right secret but a body that is no update
 * (malformed JSON, empty, null, an array, a number) is refused with 400 and handled by nobody; no
 * error is logged for it, and real updates are still answered afterwards.
 */
import { Writable } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { freePort } from "../support/freePort.js";
import { makeWorld, type World } from "../support/world.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it.each([
  ["malformed JSON", "{\"update_id\": 1, "],
  ["an empty body", ""],
  ["null", "null"],
  ["an array", "[]"],
  ["a number", "7"],
  ["an object without update_id", "{\"message\": {}}"],
])("%s with the right secret: 400, no error logged, and the next update is answered", async (_name, body) => {
  let log = "";
  const port = await freePort();
  const hook = `http://127.0.0.1:${port}/tg/updates`;
  const logger = createLogger("info", new Writable({ write: (c, _e, done) => ((log += c), done()) }));
  w = await makeWorld({ env: { HTTP_PORT: String(port), TELEGRAM_WEBHOOK_URL: hook }, logger });
  await w.app.start();
  const secret = String(w.fake.callsOf("setWebhook")[0]!.payload.secret_token);
  const headers = { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret };

  const res = await fetch(hook, { method: "POST", headers, body });
  expect(res.status).toBe(400);
  expect(log).not.toMatch(/"level":"(error|fatal)"/);

  const u = w.user({ languageCode: "en", firstName: "Rina" });
  const ok = await fetch(hook, { method: "POST", headers, body: JSON.stringify(u.textUpdate("/start")) });
  expect(ok.status).toBe(200);
  expect(w.fake.sentTo(u.chatId).map((c) => String(c.payload.text)).join("\n")).toContain("Hello, Rina");
});
