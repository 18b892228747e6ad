/**
 * PgStore's chats and their api keys (api.ts getChat... clearApiKey, the store secret) in the table
 * `chats`: every change is compare-and-set on the row version (putChat), keys sealed by rules.ts's KeyRing.
 */
import type { Sql } from "postgres";
import type { Clock } from "../../tools/clock.js";
import type { ChatPatch } from "../api.js";
import { buildChat, CLEARED_KEY_PATCH, type KeyRing, LOST_KEY_PATCH, storedChat } from "../rules.js";
import type { ChatRecord } from "../records.js";
import { chatRow } from "./rows.js";

/** The store_info row holding the secret's fingerprint. */
export const KEY_CHECK = "keyCheck";

/** What the chats need of the PgStore they live in. */
export interface PgChatsHost {
  /** Queries (watched for reachability). */
  sql: Sql;
  clock: Clock;
  keys: KeyRing;
  /** Runs one change (timed; refused once closed). */
  write<T>(table: string, fn: () => Promise<T>): Promise<T>;
  /** Throws StoreClosedError once the store is closed. */
  assertOpen(): void;
  /** A read that fails soon while the database cannot be reached (reachability.ts). */
  promptly<T>(read: Promise<T>): Promise<T>;
}

type Versioned<T> = { data: T; version: string };

export class PgChats {
  constructor(private readonly host: PgChatsHost) {}

  async getChat(chatId: number, opts: { promptly?: boolean } = {}): Promise<Readonly<ChatRecord> | undefined> {
    const read = this.readChat(chatId);
    return (await (opts.promptly ? this.host.promptly(read) : read))?.data;
  }

  updateChat(chatId: number, patch: ChatPatch): Promise<Readonly<ChatRecord>> {
    return this.putChat(chatId, () => patch);
  }

  async chatByCallbackToken(token: string): Promise<Readonly<ChatRecord> | undefined> {
    const [row] = await this.host.sql<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE callback_token = ${token}`;
    return row && storedChat(`table chats, ${row.data.chatId}`, row.data);
  }

  async linkedChats(): Promise<Readonly<ChatRecord>[]> {
    const rows = await this.host.sql<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE linked ORDER BY chat_id`;
    return rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data));
  }

  async allChats(): Promise<Readonly<ChatRecord>[]> {
    const rows = await this.host.sql<{ data: ChatRecord }[]>`SELECT data FROM chats ORDER BY chat_id`;
    return rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data));
  }

  async chatCount(): Promise<number> {
    const [row] = await this.host.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM chats`;
    return row!.n;
  }

  private async readChat(chatId: number): Promise<Versioned<ChatRecord> | undefined> {
    const [row] = await this.host.sql<{ data: ChatRecord; version: string }[]>`
      SELECT data, version::text AS version FROM chats WHERE chat_id = ${chatId}`;
    return row && { data: storedChat(`table chats, ${chatId}`, row.data), version: row.version };
  }

  /**
   * Creates or changes a chat, compare-and-set on its version. `patchOf` sees the current record
   * (undefined: new) and may throw to refuse; it runs again if another writer got there first.
   */
  private async putChat(chatId: number, patchOf: (old: ChatRecord | undefined) => Partial<ChatRecord>): Promise<ChatRecord> {
    return this.host.write("chats", async () => {
      for (;;) {
        const old = await this.readChat(chatId);
        const rec = buildChat(chatId, old?.data, patchOf(old?.data), this.host.clock.now());
        const r = chatRow(rec);
        const data = JSON.stringify(rec);
        const done = old
          ? await this.host.sql`
              UPDATE chats SET callback_token = ${r.callback_token}, linked = ${r.linked}, has_key = ${r.has_key},
                updated_at = ${r.updated_at}, data = ${data}::text::json, version = version + 1
              WHERE chat_id = ${chatId} AND version = ${old.version}`
          : await this.host.sql`
              INSERT INTO chats (chat_id, callback_token, linked, has_key, updated_at, data)
              VALUES (${chatId}, ${r.callback_token}, ${r.linked}, ${r.has_key}, ${r.updated_at}, ${data}::text::json)
              ON CONFLICT (chat_id) DO NOTHING`;
        if (done.count === 1) return rec;
      }
    });
  }

  // ---- api keys ---------------------------------------------------------------------------------

  async setApiKey(chatId: number, rawKey: string): Promise<Readonly<ChatRecord>> {
    this.host.assertOpen();
    const patch = this.host.keys.seal(chatId, rawKey, this.host.clock.now());
    return this.putChat(chatId, () => patch);
  }

  async getApiKey(chatId: number): Promise<string | undefined> {
    return this.host.keys.open(await this.getChat(chatId));
  }

  apiKeyOf(chat: Readonly<ChatRecord>): string | undefined {
    return this.host.keys.open(chat);
  }

  /** Only rows with this digest, or with none (keys saved before digests), leave the database. */
  async chatsWithKey(rawKey: string): Promise<Readonly<ChatRecord>[]> {
    const digest = this.host.keys.digest(rawKey);
    const rows = await this.host.sql<{ data: ChatRecord }[]>`
      SELECT data FROM chats WHERE linked AND (data->>'keyDigest' = ${digest} OR data->>'keyDigest' IS NULL) ORDER BY chat_id`;
    return rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data)).filter((c) => this.host.keys.holds(c, rawKey));
  }

  async clearApiKey(chatId: number): Promise<void> {
    this.host.assertOpen();
    this.host.keys.forget(chatId);
    if ((await this.getChat(chatId))?.apiKeyEnc === undefined) return;
    await this.putChat(chatId, () => CLEARED_KEY_PATCH);
  }

  async storedKeyCount(): Promise<number> {
    const [row] = await this.host.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM chats WHERE has_key`;
    return row!.n;
  }

  async resetSecret(): Promise<number[]> {
    const lost: number[] = [];
    const rows = await this.host.sql<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE has_key ORDER BY chat_id`;
    for (const chat of rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data))) {
      if (!this.host.keys.lost(chat)) continue;
      await this.putChat(chat.chatId, () => LOST_KEY_PATCH);
      lost.push(chat.chatId);
    }
    const mine = this.host.keys.ownCheck();
    await this.host.write("store_info", () => this.host.sql`UPDATE store_info SET value = ${mine} WHERE name = ${KEY_CHECK}`);
    this.host.keys.adoptOwnCheck();
    return lost;
  }
}
