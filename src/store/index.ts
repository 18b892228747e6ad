/**
 * Which store the app runs on. For now always the file store in DATA_DIR; the PostgreSQL store
 * (issue 16) is chosen here too, so app.ts only ever sees the Store interface.
 */
import type { AppConfig } from "../config.js";
import type { Store } from "./api.js";
import { FileStore, type StoreOptions } from "./store.js";

/** What every store needs besides the config: the secret, the clock and the write observers. */
export type OpenStoreOptions = Omit<StoreOptions, "dir">;

export async function openStore(config: Pick<AppConfig, "dataDir">, opts: OpenStoreOptions): Promise<Store> {
  return FileStore.open({ dir: config.dataDir, ...opts });
}
