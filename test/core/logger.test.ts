import { Writable } from "node:stream";
import { expect, it } from "vitest";
import { createLogger, protectSecret } from "../../src/logging/logger.js";

function capture() {
  let log = "";
  const logger = createLogger("trace", new Writable({ write: (c, _e, done) => ((log += c), done()) }));
  return { logger, text: () => log };
}

it("a protected token is scrubbed from every string of a line, however short or encoded", () => {
  const token = "4242:short-Token_x9"; // too short for the generic token pattern
  protectSecret(token);
  const { logger, text } = capture();
  const url = `https://api.telegram.org/bot${token}/sendMessage`;
  const err = new Error("send failed", { cause: Object.assign(new Error(`GET ${encodeURIComponent(url)}`), { url }) });
  logger.error({ err, deep: { list: [url] } }, `while calling ${url}`);
  logger.debug(url);
  expect(text()).toContain("send failed");
  expect(text()).not.toContain("short-Token_x9");
});

it("key-shaped query values and secret-named parameters are scrubbed; ordinary words stay", () => {
  const { logger, text } = capture();
  logger.warn({ url: "https://p.example/x?api_key=abc123&id=7&q=ZmFrZUtleUZvclRlc3RzMDEyMzQ1Njc4OQ==" }, "upstream call failed for T0001");
  expect(text()).not.toContain("abc123");
  expect(text()).not.toContain("ZmFrZUtleUZvclRlc3Rz");
  expect(text()).toContain("id=7");
  expect(text()).toContain("upstream call failed for T0001");
});

it("a password inside a URL (STORE_URL) is scrubbed; user, host and database stay readable", () => {
  const { logger, text } = capture();
  const url = "postgres://bot:Pa55-w0rd.x@db.example.com:5432/ppob";
  logger.error({ err: new Error(`connect failed to ${url}`), url }, `store at ${url} unreachable`);
  expect(text()).not.toContain("Pa55-w0rd");
  expect(text()).toContain("postgres://bot:***@db.example.com:5432/ppob");
});
