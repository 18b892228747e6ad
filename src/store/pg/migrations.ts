/**
 * The PostgreSQL schema, as an ordered list of migrations kept in code (the bundle carries no SQL
 * files). `migrate` runs at every open: under a transaction-level advisory lock, so two processes
 * starting together apply each migration once; a database a newer bot version migrated is refused.
 * Never edit a released migration: append a new one.
 */
import type { Sql } from "postgres";
import { beginGuarded } from "./transaction.js";

/**
 * Columns hold what is queried; `data` holds the whole record (validated with records.ts on write)
 * as `json`, not `jsonb`: kept as written, so a record reads back with its keys in the schema's order
 * (domain/refresh.ts compares details as JSON text) and any character a provider sends (jsonb refuses \u0000).
 * `version` counts changes: updates are compare-and-set on it (pgStore.ts).
 * ref_id is COLLATE "C" so history order (createdAt, then refId) matches JavaScript's string order.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE store_info (name text PRIMARY KEY, value text NOT NULL);
  CREATE TABLE chats (
    chat_id bigint PRIMARY KEY,
    callback_token text UNIQUE,
    linked boolean NOT NULL,
    has_key boolean NOT NULL,
    updated_at bigint NOT NULL,
    version bigint NOT NULL DEFAULT 0,
    data json NOT NULL
  );
  CREATE INDEX chats_linked ON chats (chat_id) WHERE linked;
  CREATE TABLE txs (
    ref_id text COLLATE "C" PRIMARY KEY,
    chat_id bigint NOT NULL,
    status text NOT NULL,
    upstream_id text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    month text NOT NULL,
    version bigint NOT NULL DEFAULT 0,
    data json NOT NULL
  );
  CREATE INDEX txs_history ON txs (chat_id, created_at DESC, ref_id DESC);
  CREATE INDEX txs_open ON txs (status) WHERE status IN ('sending', 'unknown', 'pending', 'processing');
  CREATE INDEX txs_upstream ON txs (chat_id, upstream_id) WHERE upstream_id IS NOT NULL;
  CREATE INDEX txs_month ON txs (chat_id, month, created_at, ref_id);
  CREATE TABLE meta (key text PRIMARY KEY, value json NOT NULL);
  `,
  // 2: what two bot processes share besides records (shared.ts): updates handled once, rate-limit
  // counters, the webhook secret.
  `
  CREATE TABLE handled_updates (update_id bigint PRIMARY KEY, at bigint NOT NULL);
  CREATE INDEX handled_updates_at ON handled_updates (at);
  CREATE TABLE rate_hits (key text PRIMARY KEY, window_start bigint NOT NULL, n integer NOT NULL);
  CREATE TABLE shared_secrets (name text PRIMARY KEY, value text NOT NULL);
  `,
  // 3: running flows, one row per chat, compare-and-set on version (setFlow); state NULL once a flow
  // ended, the version kept. Older versions kept them in meta as conv:<chatId> (moved at open).
  `
  CREATE TABLE flows (chat_id bigint PRIMARY KEY, version bigint NOT NULL, state json);
  `,
  // 4: documents and append-only logs of the kinds declared outside the store (api.ts DocKind), one
  // table each, shared by every kind; `data` is the value (docs) or the entry (logs) as written, checked with
  // the kind's schema on write and read. updateDoc is one UPDATE with the version/state in its WHERE;
  // a log's seq is max + 1 per (kind, owner), the primary key refusing a second process's same pick.
  `
  CREATE TABLE docs (
    kind text NOT NULL,
    id text COLLATE "C" NOT NULL,
    owner bigint NOT NULL,
    state text NOT NULL,
    version bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    data json NOT NULL,
    PRIMARY KEY (kind, id)
  );
  CREATE INDEX docs_owner ON docs (kind, owner, created_at, id);
  CREATE INDEX docs_state ON docs (kind, state);
  CREATE TABLE logs (
    kind text NOT NULL,
    owner bigint NOT NULL,
    seq bigint NOT NULL,
    at bigint NOT NULL,
    data json NOT NULL,
    PRIMARY KEY (kind, owner, seq)
  );
  `,
  // 5: wallets of downlines (docs/wallets.md): one row a wallet, locked by every change of it (a post,
  // or a record's write that holds or releases), and the entries, appended once (ref unique).
  `
  CREATE TABLE wallets (
    chat bigint PRIMARY KEY,
    owner bigint NOT NULL DEFAULT 0,
    balance bigint NOT NULL DEFAULT 0,
    held bigint NOT NULL DEFAULT 0,
    last_seq bigint NOT NULL DEFAULT 0
  );
  CREATE INDEX wallets_owner ON wallets (owner);
  CREATE TABLE wallet_entries (
    ref text COLLATE "C" PRIMARY KEY,
    wallet bigint NOT NULL,
    seq bigint NOT NULL,
    at bigint NOT NULL,
    data json NOT NULL,
    UNIQUE (wallet, seq)
  );
  ALTER TABLE txs ADD COLUMN wallet_held boolean NOT NULL DEFAULT false;
  CREATE INDEX txs_wallet_held ON txs (wallet_held) WHERE wallet_held;
  `,
  // 6: a paid deposit whose credit is not yet posted is owed by the wallets too, like a hold: the column
  // names what it marks now (walletRules.ts walletUnsettled), and such records are marked.
  `
  ALTER TABLE txs RENAME COLUMN wallet_held TO wallet_unsettled;
  ALTER INDEX txs_wallet_held RENAME TO txs_wallet_unsettled;
  UPDATE txs SET wallet_unsettled = true
    WHERE data->>'kind' = 'deposit' AND status IN ('processing', 'success')
      AND data->'wallet'->>'state' = 'draft' AND COALESCE((data->'wallet'->>'credit')::bigint, 0) > 0;
  `,
];

/** The open statuses as the SQL above and the queries spell them (checked against OPEN_STATUSES in pgStore.ts). */
export const OPEN_STATUS_SQL = ["sending", "unknown", "pending", "processing"] as const;

/** Any fixed number: the lock only has to be the same in every process of this bot. */
/** Must differ from the lead's lock (shared.ts LEADER_LOCK_KEY): a leader holds that one for good. */
export const MIGRATION_LOCK = 0x70_70_6d_67; // "ppmg"

/** The database was migrated by a newer version of the bot than this one. */
export class StoreSchemaError extends Error {
  override readonly name = "StoreSchemaError";
  constructor(found: number, known: number) {
    super(
      `The PostgreSQL store has schema version ${found}, written by a newer version of the bot (this one knows up to ${known}). ` +
        "Run the newer version, or restore a backup taken before it ran.",
    );
  }
}

/** Applies the migrations this database lacks; returns how many ran. */
export async function migrate(sql: Sql, migrations: readonly string[] = MIGRATIONS): Promise<number> {
  return beginGuarded(sql, async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const [row] = await tx<{ v: number | null }[]>`SELECT max(version) AS v FROM schema_migrations`;
    const current = row?.v ?? 0;
    if (current > migrations.length) throw new StoreSchemaError(current, migrations.length);
    for (let v = current + 1; v <= migrations.length; v++) {
      await tx.unsafe(migrations[v - 1]!);
      await tx`INSERT INTO schema_migrations (version) VALUES (${v})`;
    }
    return migrations.length - current;
  });
}
