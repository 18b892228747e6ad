/**
 * pino, with every path that may carry an api key or the bot token redacted, and every finished
 * line scrubbed of them: an error can carry the token anywhere (a nested cause, a URL in a message,
 * a stack, a field of a library's own), so the scrub runs on the whole serialized line, after
 * serializers and redaction, whatever the shape of what was logged.
 */
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

/** Bot tokens look like 123456:ABC... (the colon maybe percent-encoded inside a URL). */
const TOKEN_PATTERN = /\d{6,}(?::|%3A)[\w-]{30,}/gi;
/** A query parameter named like a secret: its value goes, whatever its length. */
const SECRET_PARAM = /([?&](?:api[_-]?key|apikey|key|token|secret|password|sign(?:ature)?)=)[^&\s"'#\\]+/gi;
/** Any other long key-shaped query value (provider keys are 20+ characters of base64-ish text). */
const LONG_PARAM = /([?&][\w.-]+=)[A-Za-z0-9+/=_%.~-]{24,}/g;

/** A password inside a URL (postgres://user:password@host, STORE_URL): it goes, the rest stays readable. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"']+:)[^\s@/"']+@/gi;

/** Exact secrets this process knows (the configured bot token), scrubbed as given and URL-encoded. */
const known = new Set<string>();

/** Adds a secret (e.g. the configured BOT_TOKEN) that no log line of any logger may contain. */
export function protectSecret(secret: string | undefined): void {
  if (!secret || secret.length < 8) return;
  known.add(secret);
  known.add(encodeURIComponent(secret));
  // The part after "123456:" is the secret part of a bot token; alone it is still a credential.
  const colon = secret.indexOf(":");
  if (colon > 0 && secret.length - colon > 8) known.add(secret.slice(colon + 1));
}

export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of [...known, ...secrets]) if (s.length >= 4 && out.includes(s)) out = out.split(s).join("[redacted]");
  return out.replace(TOKEN_PATTERN, "[redacted-token]").replace(SECRET_PARAM, "$1[redacted]").replace(LONG_PARAM, "$1[redacted]").replace(URL_PASSWORD, "$1***@");
}

/** Writes every line scrubbed to `target` (pino's default stdout stream unless given). */
function scrubbing(target: pino.DestinationStream): pino.DestinationStream {
  const flushable = target as pino.DestinationStream & { flush?: (cb?: (err?: Error) => void) => void; flushSync?: () => void };
  return {
    write: (line: string) => target.write(scrubSecrets(line)),
    // pino's flush() and final flush on exit reach the real stream through these.
    ...(flushable.flush ? { flush: (cb?: (err?: Error) => void) => flushable.flush!(cb) } : {}),
    ...(flushable.flushSync ? { flushSync: () => flushable.flushSync!() } : {}),
  } as pino.DestinationStream;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    scrubbing(destination ?? pino.destination({ dest: 1, sync: true })),
  );
}

export const silentLogger: Logger = pino({ level: "silent" });
