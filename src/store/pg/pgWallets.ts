/**
 * PgStore's wallets (docs/wallets.md) in the tables `wallets` (one row a wallet: balance, held, the
 * last entry's seq) and `wallet_entries` (migration 5). Every change of a wallet runs in one SQL
 * transaction with that wallet's row locked (`FOR UPDATE`): a post's entries and the balance they
 * make, or a record's write and the held amount its wallet part makes. So of two records racing for a
 * wallet's last rupiah on any processes, one holds it and the other is refused.
 */
import type { Sql, TransactionSql } from "postgres";
import type { Clock } from "../../tools/clock.js";
import type { LogPage, NewWalletEntry, PostedEntries, WalletBalance } from "../api.js";
import { WalletShortError } from "../errors.js";
import type { WalletEntry } from "../records.js";
import { logPage } from "../rules.js";
import { availableOf, buildEntry, distinctEntries, mayOverdraw, storedEntry } from "../walletRules.js";
import { beginGuarded } from "./transaction.js";

export interface PgWalletsHost {
  sql: Sql;
  clock: Clock;
  write<T>(table: string, fn: () => Promise<T>): Promise<T>;
  assertOpen(): void;
}

interface WalletRow {
  chat: number;
  owner: number;
  balance: number;
  held: number;
  last_seq: number;
}

/** Locks the wallets' rows (made if missing), in chat order so two calls never wait on each other in a circle. */
export async function lockWallets(tx: TransactionSql, chats: readonly number[]): Promise<Map<number, WalletRow>> {
  const sorted = [...new Set(chats)].sort((a, b) => a - b);
  for (const chat of sorted) await tx`INSERT INTO wallets (chat) VALUES (${chat}) ON CONFLICT (chat) DO NOTHING`;
  const rows = await tx<WalletRow[]>`
    SELECT chat::float8 AS chat, owner::float8 AS owner, balance::float8 AS balance, held::float8 AS held, last_seq::float8 AS last_seq
    FROM wallets WHERE chat IN ${tx(sorted)} ORDER BY chat FOR UPDATE`;
  return new Map(rows.map((r) => [r.chat, r]));
}

/** Inside a record's write: the wallet holds `more` (negative: releases); false when it has not that much available. */
export async function moveHeld(tx: TransactionSql, chat: number, more: number): Promise<boolean> {
  const row = (await lockWallets(tx, [chat])).get(chat)!;
  if (more > 0 && availableOf(row.balance, row.held) < more) return false;
  await tx`UPDATE wallets SET held = held + ${more} WHERE chat = ${chat}`;
  return true;
}

export class PgWallets {
  constructor(private readonly host: PgWalletsHost) {}

  async wallet(chat: number): Promise<WalletBalance> {
    const [row] = await this.host.sql<WalletRow[]>`
      SELECT chat::float8 AS chat, owner::float8 AS owner, balance::float8 AS balance, held::float8 AS held FROM wallets WHERE chat = ${chat}`;
    return row ? balanceOf(row) : { chat, owner: 0, balance: 0, held: 0 };
  }

  async walletsOf(owner: number): Promise<WalletBalance[]> {
    const rows = await this.host.sql<WalletRow[]>`
      SELECT chat::float8 AS chat, owner::float8 AS owner, balance::float8 AS balance, held::float8 AS held
      FROM wallets WHERE owner = ${owner} ORDER BY chat`;
    return rows.map(balanceOf);
  }

  async walletEntries(chat: number, page?: LogPage): Promise<WalletEntry[]> {
    const { beforeSeq, limit } = logPage(page);
    const rows = await this.host.sql<{ data: unknown }[]>`
      SELECT data FROM wallet_entries WHERE wallet = ${chat} AND seq < ${beforeSeq ?? Number.MAX_SAFE_INTEGER}
      ORDER BY seq DESC LIMIT ${limit}`;
    return rows.map((r) => storedEntry(`table wallet_entries, wallet ${chat}`, r.data));
  }

  async walletEntry(ref: string): Promise<WalletEntry | undefined> {
    const [row] = await this.host.sql<{ data: unknown }[]>`SELECT data FROM wallet_entries WHERE ref = ${ref}`;
    return row && storedEntry(`table wallet_entries, ${ref}`, row.data);
  }

  async postEntries(input: readonly NewWalletEntry[]): Promise<PostedEntries> {
    this.host.assertOpen();
    const wanted = distinctEntries(input);
    if (wanted.length === 0) return { posted: [], skipped: [] };
    return this.host.write("wallets", () =>
      beginGuarded(this.host.sql, async (tx) => {
        const wallets = await lockWallets(tx, wanted.map((e) => e.wallet));
        const known = await tx<{ ref: string }[]>`SELECT ref FROM wallet_entries WHERE ref IN ${tx(wanted.map((e) => e.ref))}`;
        const skipped = new Set(known.map((r) => r.ref));
        const fresh = wanted.filter((e) => !skipped.has(e.ref));
        const debits = new Map<number, number>();
        for (const e of fresh) if (e.amount < 0 && !mayOverdraw(e)) debits.set(e.wallet, (debits.get(e.wallet) ?? 0) - e.amount);
        for (const [chat, debit] of debits) {
          const w = wallets.get(chat)!;
          const available = availableOf(w.balance, w.held);
          if (available < debit) throw new WalletShortError(chat, available, debit);
        }
        const at = this.host.clock.now();
        const posted = fresh.map((e) => {
          const w = wallets.get(e.wallet)!;
          w.last_seq += 1;
          w.balance += e.amount;
          w.owner = e.owner;
          return buildEntry(e, w.last_seq, at, w.balance);
        });
        for (const e of posted) {
          await tx`INSERT INTO wallet_entries (ref, wallet, seq, at, data) VALUES (${e.ref}, ${e.wallet}, ${e.seq}, ${e.at}, ${JSON.stringify(e)}::text::json)`;
        }
        for (const chat of new Set(posted.map((e) => e.wallet))) {
          const w = wallets.get(chat)!;
          await tx`UPDATE wallets SET balance = ${w.balance}, owner = ${w.owner}, last_seq = ${w.last_seq} WHERE chat = ${chat}`;
        }
        return { posted, skipped: [...skipped] };
      }),
    );
  }
}

function balanceOf(row: WalletRow): WalletBalance {
  return { chat: row.chat, owner: row.owner, balance: row.balance, held: row.held };
}
