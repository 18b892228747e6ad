import { describe, expect, it } from "vitest";
import { loadConfig, playgroundConfig } from "../../src/config/env.js";

const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({ BOT_TOKEN: TOKEN });
    expect(c).toMatchObject({
      botToken: TOKEN,
      upstreamBaseUrl: "https://atlantich2h.com",
      telegramApiRoot: undefined,
      dataDir: "./data",
      storeSecret: undefined,
      storeSecretReset: false,
      adminIds: [],
      logLevel: "info",
      watchCallsPerKey: 5,
    });
  });

  it("names a missing BOT_TOKEN in one line", () => {
    expect(() => loadConfig({})).toThrowError(/^Configuration error: BOT_TOKEN is required/);
  });

  it("refuses the .env.example placeholder token and says what to put there, instead of retrying it for ever", async () => {
    const { readFile } = await import("node:fs/promises");
    const example = await readFile(new URL("../../.env.example", import.meta.url), "utf8");
    const placeholder = /^BOT_TOKEN=(.*)$/m.exec(example)?.[1];
    expect(placeholder).toBeTruthy();
    expect(() => loadConfig({ BOT_TOKEN: placeholder })).toThrowError(
      /^Configuration error: BOT_TOKEN is still the example's placeholder: put the token @BotFather gave you there/,
    );
  });

  it.each([
    [{ BOT_TOKEN: "nope" }, /BOT_TOKEN must look like/],
    [{ BOT_TOKEN: TOKEN, UPSTREAM_BASE_URL: "ftp://x" }, /UPSTREAM_BASE_URL must be an http\(s\) URL or the word "sandbox"/],
    [{ BOT_TOKEN: TOKEN, ADMIN_IDS: "12,abc" }, /ADMIN_IDS must be comma-separated Telegram user ids; "abc"/],
    [{ BOT_TOKEN: TOKEN, LOG_LEVEL: "loud" }, /LOG_LEVEL must be one of/],
    [{ BOT_TOKEN: TOKEN, STORE_SECRET: "short" }, /STORE_SECRET must be at least 16 characters/],
    [{ BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: "not a url" }, /TELEGRAM_API_ROOT must be the URL of a Bot API server/],
    [{ BOT_TOKEN: TOKEN, WATCH_CALLS_PER_KEY: "0" }, /WATCH_CALLS_PER_KEY must be at least 1/],
    [{ BOT_TOKEN: TOKEN, WATCH_CALLS_PER_KEY: "fast" }, /WATCH_CALLS_PER_KEY must be a number/],
    [{ BOT_TOKEN: TOKEN, HTTP_PORT: "8080", PUBLIC_URL: "http://bot.example.com" }, /PUBLIC_URL must be an https URL \(plain http only for 127.0.0.1 or localhost\)/],
    [{ BOT_TOKEN: TOKEN, HTTP_PORT: "8080", PUBLIC_URL: "bot.example.com" }, /PUBLIC_URL must be the public https origin/],
    [{ BOT_TOKEN: TOKEN, PUBLIC_URL: "https://bot.example.com" }, /PUBLIC_URL needs HTTP_PORT/],
    [{ BOT_TOKEN: TOKEN, STORE_URL: "mysql://u:p@h/db" }, /STORE_URL must be a PostgreSQL URL/],
    [{ BOT_TOKEN: TOKEN, STORE_SECRET_RESET: "maybe" }, /STORE_SECRET_RESET must be 1 \(go on with a new secret\) or 0/],
  ])("refuses %o", (env, message) => {
    expect(() => loadConfig(env)).toThrowError(message);
  });

  it("reads sandbox mode, admins and a self-hosted Bot API root", () => {
    const c = loadConfig({
      BOT_TOKEN: TOKEN,
      UPSTREAM_BASE_URL: "sandbox",
      ADMIN_IDS: " 11, 22 ",
      TELEGRAM_API_ROOT: "http://127.0.0.1:8081/",
      STORE_SECRET: "",
    });
    expect(c.upstreamBaseUrl).toBeNull();
    expect(c.adminIds).toEqual([11, 22]);
    expect(c.telegramApiRoot).toBe("http://127.0.0.1:8081");
    expect(c.storeSecret).toBeUndefined();
  });

  it("reads STORE_URL (postgres:// or postgresql://); a wrong one is refused without echoing its password", () => {
    expect(loadConfig({ BOT_TOKEN: TOKEN }).storeUrl).toBeUndefined();
    expect(loadConfig({ BOT_TOKEN: TOKEN, STORE_URL: " " }).storeUrl).toBeUndefined();
    expect(loadConfig({ BOT_TOKEN: TOKEN, STORE_URL: "postgres://bot:pw@127.0.0.1:5432/ppob" }).storeUrl).toBe("postgres://bot:pw@127.0.0.1:5432/ppob");
    expect(loadConfig({ BOT_TOKEN: TOKEN, STORE_URL: "postgresql://db/ppob" }).storeUrl).toBe("postgresql://db/ppob");
    expect(() => loadConfig({ BOT_TOKEN: TOKEN, STORE_URL: "http://bot:Sup3rS3cret@db/ppob" })).toThrowError(
      expect.objectContaining({ message: expect.not.stringContaining("Sup3rS3cret") as string }),
    );
  });

  it("reads PUBLIC_URL (https, or plain http on this machine) without a trailing slash", () => {
    expect(loadConfig({ BOT_TOKEN: TOKEN, HTTP_PORT: "8080", PUBLIC_URL: "https://bot.example.com/" }).publicUrl).toBe("https://bot.example.com");
    expect(loadConfig({ BOT_TOKEN: TOKEN, HTTP_PORT: "0", PUBLIC_URL: "http://127.0.0.1:8080" }).publicUrl).toBe("http://127.0.0.1:8080");
    expect(loadConfig({ BOT_TOKEN: TOKEN }).publicUrl).toBeUndefined();
  });
});

describe("playgroundConfig (npm start without BOT_TOKEN)", () => {
  it("starts the playground when BOT_TOKEN is unset or empty, with its own folder and port", () => {
    expect(playgroundConfig({}, [])).toEqual({ dataDir: ".playground", reset: false, port: 3000, logLevel: "error" });
    expect(playgroundConfig({ BOT_TOKEN: "  ", DATA_DIR: "/srv/bot" }, [])).toMatchObject({ dataDir: ".playground" });
    expect(playgroundConfig({ PLAYGROUND_DIR: "/tmp/pg", PLAYGROUND_PORT: "0", LOG_LEVEL: "warn" }, [])).toEqual({
      dataDir: "/tmp/pg",
      reset: false,
      port: 0,
      logLevel: "warn",
    });
  });

  it("resets with npm start -- --reset or PLAYGROUND_RESET=1", () => {
    expect(playgroundConfig({}, ["node", "dist/main.js", "--reset"])?.reset).toBe(true);
    expect(playgroundConfig({ PLAYGROUND_RESET: "1" }, [])?.reset).toBe(true);
  });

  it("is off with a BOT_TOKEN (nothing changes) and under NODE_ENV=production (the missing token is reported)", () => {
    expect(playgroundConfig({ BOT_TOKEN: TOKEN }, [])).toBeUndefined();
    expect(playgroundConfig({ NODE_ENV: "production" }, [])).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrowError(/BOT_TOKEN is required/);
  });

  it("names a wrong playground variable in one line", () => {
    expect(() => playgroundConfig({ PLAYGROUND_PORT: "web" }, [])).toThrowError(/^Configuration error: PLAYGROUND_PORT must be a TCP port number/);
  });
});
