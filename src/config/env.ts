/**
 * The only place that reads `process.env`. Validated once at start-up with zod; a missing or wrong
 * value stops start-up with one line naming the variable and what is expected.
 */
import * as z from "../tools/zod.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const optionalText = z.optional(z.pipe(z.string().check(z.trim()), z.transform((v) => (v === "" ? undefined : v))));

/** An https URL (plain http only for 127.0.0.1 or localhost), or unset. */
const optionalHttpsUrl = (error: string) =>
  z.pipe(
    optionalText,
    z.optional(
      z.url({ error }).check(
        z.refine((v) => webhookUrlAllowed(v), {
          message: "must be an https URL (plain http only for 127.0.0.1 or localhost)",
        }),
      ),
    ),
  );

const schema = z.object({
  BOT_TOKEN: z
    .string({ error: "is required: the token @BotFather gave you" })
    .check(
      z.trim(),
      // .env.example's placeholder has the shape of a token: taken as one, Telegram refused it for ever.
      z.refine((v) => !/replace-with/i.test(v), {
        message: "is still the example's placeholder: put the token @BotFather gave you there, or remove the line to try the playground",
      }),
      z.regex(/^\d+:[\w-]{20,}$/, "must look like 123456789:AA... (the token @BotFather gave you)"),
    ),
  UPSTREAM_BASE_URL: z.pipe(
    z._default(z.string().check(z.trim()), "https://atlantich2h.com").check(
      z.refine((v) => v === "sandbox" || /^https?:\/\/[^\s]+$/.test(v), {
        message: 'must be an http(s) URL or the word "sandbox"',
      }),
    ),
    z.transform((v) => v.replace(/\/+$/, "")),
  ),
  TELEGRAM_API_ROOT: z.pipe(optionalText, z.optional(z.url({ error: "must be the URL of a Bot API server, e.g. http://127.0.0.1:8081" }))),
  DATA_DIR: z._default(z.string().check(z.trim(), z.minLength(1)), "./data"),
  STORE_SECRET: z.pipe(optionalText, z.optional(z.string().check(z.minLength(16, "must be at least 16 characters (or leave it unset to generate one)")))),
  STORE_SECRET_RESET: z.pipe(
    z._default(z.string().check(z.trim(), z.toLowerCase()), "").check(
      z.refine((v) => ["", "0", "1", "false", "true", "no", "yes"].includes(v), { message: "must be 1 (go on with a new secret) or 0" }),
    ),
    z.transform((v) => ["1", "true", "yes"].includes(v)),
  ),
  STORE_URL: z.pipe(
    optionalText,
    z.optional(
      z.string().check(
        z.refine((v) => /^postgres(ql)?:\/\/\S+$/.test(v) && URL.canParse(v), {
          // Never echo the value: it may carry the database password.
          message: "must be a PostgreSQL URL, e.g. postgres://bot:password@127.0.0.1:5432/ppob (or leave it unset for the files in DATA_DIR)",
        }),
      ),
    ),
  ),
  ADMIN_IDS: z.pipe(
    z._default(z.string().check(z.trim()), ""),
    z.transform((v, ctx) => {
      const ids = v.split(",").map((s) => s.trim()).filter(Boolean);
      const bad = ids.find((s) => !/^\d+$/.test(s));
      if (bad !== undefined) {
        ctx.issues.push({ code: "custom", message: `must be comma-separated Telegram user ids; "${bad}" is not one`, input: v });
        return z.NEVER;
      }
      return ids.map(Number);
    }),
  ),
  LOG_LEVEL: z._default(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }), "info"),
  WATCH_CALLS_PER_KEY: z._default(
    z.coerce
      .number({ error: "must be a number of status calls per second per api key, e.g. 5" })
      .check(
        z.int("must be a whole number of status calls per second per api key"),
        z.gte(1, "must be at least 1"),
        z.lte(50, "must be at most 50 (be polite to the provider)"),
      ),
    5,
  ),
  HTTP_PORT: z.pipe(
    optionalText,
    z.optional(
      z.coerce
        .number<string | undefined>({ error: "must be a TCP port number, e.g. 8080 (or leave it unset for no HTTP server)" })
        .check(
          z.int("must be a whole TCP port number, e.g. 8080"),
          z.gte(0, "must be a TCP port number between 0 and 65535"),
          z.lte(65535, "must be a TCP port number between 0 and 65535"),
        ),
    ),
  ),
  HTTP_HOST: z._default(z.string().check(z.trim(), z.minLength(1)), "127.0.0.1"),
  TELEGRAM_WEBHOOK_URL: optionalHttpsUrl("must be the public https URL Telegram posts updates to, e.g. https://bot.example.com/telegram"),
  PUBLIC_URL: optionalHttpsUrl("must be the public https origin that reaches HTTP_PORT, e.g. https://bot.example.com"),
  TRUST_PROXY: z._default(
    z.coerce.number<string | undefined>({ error: "must be the number of proxies in front of the bot, e.g. 1 (or 0)" }).check(
      z.int("must be a whole number of proxies, e.g. 1"),
      z.gte(0, "must be 0 or more"),
      z.lte(10, "must be at most 10"),
    ),
    0,
  ),
});

function webhookUrlAllowed(v: string): boolean {
  if (!URL.canParse(v)) return false; // zod runs the refinement even after z.url() refused
  const url = new URL(v);
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

export type AppConfig = {
  botToken: string;
  /** `null` means: start the built-in sandbox and use it. */
  upstreamBaseUrl: string | null;
  telegramApiRoot: string | undefined;
  dataDir: string;
  storeSecret: string | undefined;
  /** postgres:// URL of the PostgreSQL store; undefined = the file store in DATA_DIR. May carry a password: never log it. */
  storeUrl: string | undefined;
  /**
   * The operator chose to go on after losing the store secret: api keys that no longer decrypt are
   * removed (their chats are asked to link again) and the current secret becomes the store's.
   */
  storeSecretReset: boolean;
  adminIds: number[];
  logLevel: (typeof LOG_LEVELS)[number];
  /** Cap on the status watcher's calls per second per api key. */
  watchCallsPerKey: number;
  /** The one HTTP server (/healthz, /metrics, webhook); undefined = none. */
  http: { port: number; host: string } | undefined;
  /** Webhook mode instead of long polling (needs `http`). */
  webhookUrl: string | undefined;
  /** The public origin reaching `http` (no trailing slash): the provider's callbacks come to PUBLIC_URL/provider/<token>. */
  publicUrl: string | undefined;
  /** Proxies in front of HTTP_PORT whose X-Forwarded-For is trusted for the caller's IP (H2H); 0: the socket's address. */
  trustProxy: number;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment (process.env by default). Throws ConfigError with one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    const given = env[name];
    const message =
      given === undefined && name === "BOT_TOKEN" ? "is required: the token @BotFather gave you" : issue.message;
    throw new ConfigError(`Configuration error: ${name} ${message}`);
  }
  const c = result.data;
  if (c.TELEGRAM_WEBHOOK_URL !== undefined && c.HTTP_PORT === undefined) {
    throw new ConfigError("Configuration error: TELEGRAM_WEBHOOK_URL needs HTTP_PORT (the port the webhook URL reaches)");
  }
  if (c.PUBLIC_URL !== undefined && c.HTTP_PORT === undefined) {
    throw new ConfigError("Configuration error: PUBLIC_URL needs HTTP_PORT (the port PUBLIC_URL reaches)");
  }
  return {
    botToken: c.BOT_TOKEN,
    upstreamBaseUrl: c.UPSTREAM_BASE_URL === "sandbox" ? null : c.UPSTREAM_BASE_URL,
    telegramApiRoot: c.TELEGRAM_API_ROOT?.replace(/\/+$/, ""),
    dataDir: c.DATA_DIR,
    storeSecret: c.STORE_SECRET,
    storeUrl: c.STORE_URL,
    storeSecretReset: c.STORE_SECRET_RESET,
    adminIds: c.ADMIN_IDS,
    logLevel: c.LOG_LEVEL,
    watchCallsPerKey: c.WATCH_CALLS_PER_KEY,
    http: c.HTTP_PORT === undefined ? undefined : { port: c.HTTP_PORT, host: c.HTTP_HOST },
    webhookUrl: c.TELEGRAM_WEBHOOK_URL,
    publicUrl: c.PUBLIC_URL?.replace(/\/+$/, ""),
    trustProxy: c.TRUST_PROXY,
  };
}

/** `npm start` without BOT_TOKEN: the playground (src/playground) instead of the bot on Telegram. */
export interface PlaygroundConfig {
  /** The playground's own store (PLAYGROUND_DIR, default `.playground`), never DATA_DIR. */
  dataDir: string;
  /** `npm start -- --reset` or PLAYGROUND_RESET=1: start from an empty folder. */
  reset: boolean;
  /** The page's port on 127.0.0.1 (PLAYGROUND_PORT, default 3000; taken: any free one). */
  port: number;
  logLevel: (typeof LOG_LEVELS)[number];
}

const playgroundSchema = z.object({
  PLAYGROUND_DIR: z._default(z.string().check(z.trim(), z.minLength(1)), ".playground"),
  PLAYGROUND_RESET: z.pipe(
    z._default(z.string().check(z.trim(), z.toLowerCase()), "").check(
      z.refine((v) => ["", "0", "1", "false", "true", "no", "yes"].includes(v), { message: "must be 1 (start empty) or 0" }),
    ),
    z.transform((v) => ["1", "true", "yes"].includes(v)),
  ),
  PLAYGROUND_PORT: z._default(
    z.coerce
      .number({ error: "must be a TCP port number, e.g. 3000" })
      .check(
        z.int("must be a whole TCP port number, e.g. 3000"),
        z.gte(0, "must be a TCP port number between 0 and 65535"),
        z.lte(65535, "must be a TCP port number between 0 and 65535"),
      ),
    3000,
  ),
  LOG_LEVEL: z._default(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }), "error"),
});

/**
 * The playground's settings when BOT_TOKEN is unset or empty, else undefined (the bot runs as
 * always). Not under NODE_ENV=production: a production start without a token is a mistake to
 * report (loadConfig says which variable), not a reason to simulate Telegram.
 */
export function playgroundConfig(
  env: Record<string, string | undefined> = process.env,
  argv: readonly string[] = process.argv,
): PlaygroundConfig | undefined {
  if ((env.BOT_TOKEN ?? "").trim() !== "" || env.NODE_ENV === "production") return undefined;
  const result = playgroundSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Configuration error: ${String(issue.path[0] ?? "environment")} ${issue.message}`);
  }
  const c = result.data;
  return { dataDir: c.PLAYGROUND_DIR, reset: c.PLAYGROUND_RESET || argv.includes("--reset"), port: c.PLAYGROUND_PORT, logLevel: c.LOG_LEVEL };
}
