/**
 * Opens the store the configuration asks for: PostgreSQL when STORE_URL is a postgres:// URL, else
 * the files in DATA_DIR. PgStore (and the postgres client) load only when chosen: a file-store bot
 * does not carry them at start-up.
 */
import type { Clock } from "../tools/clock.js";
import type { Store } from "./api.js";
import { FileStore } from "./file/fileStore.js";

export * from "./api.js";

// What cluster/pgShared.ts needs to share the store's PostgreSQL database (its tables are the store's
// migration 2) with the same connection workarounds. None of these loads the postgres client.
export { migrate } from "./pg/migrations.js";
export { Reachability } from "./pg/reachability.js";
export { beginGuarded } from "./pg/transaction.js";
export { startupParams } from "./pg/startup.js";
export { countingQueries, endSessions } from "./pg/sessions.js";

export interface OpenStoreOptions {
  /** STORE_URL: postgres:// or postgresql:// selects PostgreSQL; unset = the files in `dir`. */
  url?: string | undefined;
  /** DATA_DIR (the file store's folder). */
  dir: string;
  secret: string;
  clock?: Clock;
  onWrite?: (name: string, ok: boolean, seconds: number) => void;
  onError?: (err: unknown) => void;
  /** File store: told of what it repaired on its own (a log's torn last line); default process.emitWarning. */
  onWarning?: (message: string) => void;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  const { url, onWarning, ...rest } = opts;
  if (isPostgresUrl(url)) {
    const { PgStore } = await import("./pg/pgStore.js");
    return PgStore.open({ ...rest, url });
  }
  return FileStore.open(onWarning ? { ...rest, onWarning } : rest);
}
