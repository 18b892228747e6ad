/**
 * How a record maps to its table row: the queried columns are derived here, once, for the store and
 * for migrate-store, so both write the same columns for the same record.
 */
import { wibMonth } from "../months.js";
import type { ChatRecord, TxRecord } from "../records.js";
import { walletUnsettled } from "../walletRules.js";

export interface TxRow {
  ref_id: string;
  chat_id: number;
  status: string;
  upstream_id: string | null;
  created_at: number;
  updated_at: number;
  /** WIB month of createdAt ("YYYY-MM"), as the file store's archive and reports count months. */
  month: string;
  /** Its wallet part holds money (docs/wallets.md): found again at start. */
  wallet_unsettled: boolean;
  data: TxRecord;
}

export interface ChatRow {
  chat_id: number;
  callback_token: string | null;
  /** Has an api key and has not blocked the bot (linkedChats). */
  linked: boolean;
  has_key: boolean;
  updated_at: number;
  data: ChatRecord;
}

export function txRow(rec: TxRecord): TxRow {
  return {
    ref_id: rec.refId,
    chat_id: rec.chatId,
    status: rec.status,
    upstream_id: rec.upstreamId ?? null,
    created_at: rec.createdAt,
    updated_at: rec.updatedAt,
    month: wibMonth(rec.createdAt),
    wallet_unsettled: walletUnsettled(rec),
    data: rec,
  };
}

export function chatRow(rec: ChatRecord): ChatRow {
  return {
    chat_id: rec.chatId,
    callback_token: rec.callbackToken ?? null,
    linked: rec.apiKeyEnc !== undefined && !rec.inactive,
    has_key: rec.apiKeyEnc !== undefined,
    updated_at: rec.updatedAt,
    data: rec,
  };
}
