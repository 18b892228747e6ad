/** pino, with every path that may carry an api key or the bot token redacted. */
import { pino, type Logger } from "pino";

export type { Logger };

const REDACT_PATHS = [
  "apiKey",
  "api_key",
  "*.apiKey",
  "*.api_key",
  "*.*.api_key",
  "token",
  "*.token",
  "botToken",
  "*.botToken",
  "key",
  "*.key",
];

/** Bot tokens look like 123456:ABC...; they can hide inside URLs of error messages. */
const TOKEN_PATTERN = /\d{6,}:[\w-]{30,}/g;

export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(TOKEN_PATTERN, "[redacted-token]");
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        // Last line of defence: error messages (e.g. from fetch) can embed the token in a URL.
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === "string" ? scrubSecrets(a) : a)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
      serializers: {
        err: (e: unknown) => {
          const s = pino.stdSerializers.err(e as Error);
          return { ...s, message: scrubSecrets(s.message ?? ""), stack: scrubSecrets(s.stack ?? "") };
        },
      },
    },
    destination,
  );
}

export const silentLogger: Logger = pino({ level: "silent" });
