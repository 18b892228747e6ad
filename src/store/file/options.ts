/** What FileStore.open takes, and what its stats() tells. */
import type { Clock } from "../../tools/clock.js";
import type { StoreStats } from "../api.js";
import type { FlushStats } from "./flusher.js";

export interface StoreOptions {
  /** DATA_DIR; the store keeps its files in `<dir>/store/` and creates it if missing. */
  dir: string;
  /** Secret the api-key encryption key is derived from (STORE_SECRET). */
  secret: string;
  clock?: Clock;
  /** Delay between the first unsaved change and its write (default 50 ms). */
  flushDelayMs?: number;
  /** The same for the tx shards, whose changes that must be saved at once go to the journal (default TX_FLUSH_DELAY_MS). */
  txFlushDelayMs?: number;
  /** Called when a background flush fails; the data stays dirty and is retried. */
  onError?: (err: unknown) => void;
  /** Told of every file write, good or failed (metrics, health). */
  onWrite?: (file: string, ok: boolean, seconds: number) => void;
  /** Shard counts for a new store (tests); an existing store keeps the counts in its meta.json. */
  chatShards?: number;
  txShards?: number;
  /** Final transactions unchanged this long leave memory for the archive (default 7 days). */
  archiveAfterMs?: number;
  /** How often the archive sweep runs on the clock (default hourly); it also runs at open. */
  sweepEveryMs?: number;
  /** Told of what the store repaired on its own (a log's torn last line); default process.emitWarning. */
  onWarning?: (message: string) => void;
}

/** FileStore's stats: the interface's, its flusher's, and how much it holds in memory. */
export interface FileStoreStats extends FlushStats, StoreStats {
  kind: "file";
  chats: number;
  /** Transactions in memory (open, drafts and recent history). */
  txs: number;
  openTxs: number;
  /** Appends (each one fsync) to the transactions' journal since open: flushTx's group commits. */
  journalAppends: number;
}

