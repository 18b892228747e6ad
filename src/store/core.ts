/**
 * The rules both stores (file/, pg/) keep, written once: how a record is built from a patch and
 * validated, when a compare-and-set may apply, which transactions are "hot", how api keys are sealed
 * and opened, and which stored records are refused. The backends only read, write and query; each
 * calls these at the same points so that the contract suite (test/store/contract.test.ts) sees one
 * behaviour.
 */
import type { ChatPatch, FlowState, NewTx, TxPatch } from "./api.js";
import { decrypt, DecryptedKeys, encrypt, keyAad, keyCheck, keyCheckMatches, maskKey } from "./crypto.js";
import { ApiKeyDecryptError, StoreCorruptError, StoreSecretMismatchError } from "./errors.js";
import { deepFreeze, frozenCopy } from "./frozen.js";
import { quickChecks } from "./recordCheck.js";
import { ChatRecordSchema, describeIssues, TxRecordSchema } from "./records.js";
import { OPEN_STATUSES, type ChatRecord, type TxRecord, type TxStatus } from "./types.js";

/**
 * Final records whose last change is older than this are history: the file store moves them to its
 * archive, and `findHotTx` no longer finds them on either store. A week keeps the first history
 * pages, fee estimates and repeat checks in memory (bench/results.md).
 */
export const HOT_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether `findHotTx` may answer with `rec` at `now`: open ones always, final ones changed within `hotForMs`. */
export function isHot(rec: TxRecord, now: number, hotForMs = HOT_FOR_MS): boolean {
  return OPEN_STATUSES.has(rec.status) || rec.updatedAt >= now - hotForMs;
}

/** The chat after `patch`, validated and frozen: the schema's output, exactly what a reread gives. */
export function buildChat(chatId: number, old: ChatRecord | undefined, patch: Partial<ChatRecord>, now: number): ChatRecord {
  const copy = frozenCopy({ ...old, ...patch, chatId, createdAt: old?.createdAt ?? now, updatedAt: now }, "chat");
  const parsed = ChatRecordSchema.safeParse(copy);
  if (!parsed.success) throw new TypeError(`Invalid chat ${chatId}: ${describeIssues(parsed.error)}`);
  return deepFreeze(parsed.data);
}

/** A new transaction, validated and frozen; createdAt/updatedAt default to `now`. */
export function buildNewTx(input: NewTx, now: number): TxRecord {
  if (typeof input.refId !== "string" || input.refId === "") throw new TypeError("refId must be a non-empty string.");
  return validTx(frozenCopy({ ...input, createdAt: input.createdAt ?? now, updatedAt: input.updatedAt ?? now }, "tx"));
}

/** `old` after `patch`: kind, refId, chatId and createdAt never change; `detail` must fit the kind. */
export function patchTx(old: TxRecord, patch: TxPatch, now: number): TxRecord {
  // The spread loses the kind/detail pairing for the compiler; the schema checks it.
  return validTx(
    frozenCopy({ ...old, ...patch, kind: old.kind, refId: old.refId, chatId: old.chatId, createdAt: old.createdAt, updatedAt: now }, "tx") as TxRecord,
  );
}

function validTx(copy: TxRecord): TxRecord {
  const parsed = TxRecordSchema.safeParse(copy);
  if (!parsed.success) throw new TypeError(`Invalid transaction ${copy.refId}: ${describeIssues(parsed.error)}`);
  return deepFreeze(parsed.data);
}

/** The compare-and-set rule of `transitionTx`: the status is one of `from` and the guard holds. */
export function transitionAllowed(
  current: TxRecord | undefined,
  from: readonly TxStatus[],
  when: ((current: Readonly<TxRecord>) => boolean) | undefined,
): current is TxRecord {
  return current !== undefined && from.includes(current.status) && (!when || when(current));
}

/** A chat record read from storage (`where` names it): refused with StoreCorruptError if it does not pass records.ts. */
export function storedChat(where: string, data: unknown): ChatRecord {
  if (quickChecks().chat(data)) return deepFreeze(data as ChatRecord);
  const parsed = ChatRecordSchema.safeParse(data);
  if (!parsed.success) throw new StoreCorruptError(where, describeIssues(parsed.error));
  return deepFreeze(parsed.data);
}

/** A transaction read from storage (`where` names it): refused with StoreCorruptError if it does not pass records.ts. */
export function storedTx(where: string, data: unknown): TxRecord {
  if (quickChecks().tx(data)) return deepFreeze(data as TxRecord);
  const parsed = TxRecordSchema.safeParse(data);
  if (!parsed.success) throw new StoreCorruptError(where, describeIssues(parsed.error));
  return deepFreeze(parsed.data);
}

/** A flow state as stored: a JSON copy, frozen (rejects what JSON cannot hold, as meta does). */
export function storedFlow(chatId: number, state: unknown): FlowState {
  return frozenCopy(state, `flow.${chatId}`) as FlowState;
}

/** Meta keys an older version kept flow state under (`conv:<chatId>`); moved to the flow storage at open. */
export function legacyFlowChat(metaKey: string): number | undefined {
  const m = /^conv:(-?\d+)$/.exec(metaKey);
  return m ? Number(m[1]) : undefined;
}

/** What a chat loses when its key no longer decrypts under the store's secret. */
export const LOST_KEY_PATCH: Partial<ChatRecord> = { apiKeyEnc: undefined, keyMask: undefined, linkedAt: undefined, keyLost: true, awaitingKey: true };
/** What clearApiKey removes. */
export const CLEARED_KEY_PATCH: Partial<ChatRecord> = { apiKeyEnc: undefined, keyMask: undefined, linkedAt: undefined };

/**
 * The api-key side of a store: the derived key, the stored key check, and the decrypted keys kept
 * in memory. One per open store.
 */
export class KeyRing {
  private readonly decrypted = new DecryptedKeys();

  constructor(
    private readonly key: Buffer,
    /** The fingerprint of the secret the store was created with ("" until a new store records its own). */
    private storedCheck: string,
  ) {}

  /** The fingerprint of this process's secret, to record in a new store or after resetSecret. */
  ownCheck(): string {
    return keyCheck(this.key);
  }

  adoptOwnCheck(): string {
    this.storedCheck = keyCheck(this.key);
    return this.storedCheck;
  }

  secretMatches(): boolean {
    return keyCheckMatches(this.key, this.storedCheck);
  }

  /** The chat fields setApiKey writes: the key sealed to this chat, its mask; the chat is active again. */
  seal(chatId: number, rawKey: string, now: number): ChatPatch & Partial<ChatRecord> {
    if (typeof rawKey !== "string" || rawKey === "") throw new TypeError("The api key must be a non-empty string.");
    if (!this.secretMatches()) throw new StoreSecretMismatchError();
    return { apiKeyEnc: encrypt(this.key, rawKey, keyAad(chatId)), keyMask: maskKey(rawKey), linkedAt: now, inactive: undefined, keyLost: undefined };
  }

  /** The key stored in `chat`, or undefined if it has none; ApiKeyDecryptError on a wrong secret. */
  open(chat: ChatRecord | undefined): string | undefined {
    if (chat?.apiKeyEnc === undefined) return undefined;
    const key = this.decrypted.read(this.key, chat.chatId, chat.apiKeyEnc);
    if (key === undefined) throw new ApiKeyDecryptError(chat.chatId);
    return key;
  }

  /** Whether resetSecret must drop this chat's key: it has one and it does not decrypt. */
  lost(chat: ChatRecord): boolean {
    if (chat.apiKeyEnc === undefined || decrypt(this.key, chat.apiKeyEnc, keyAad(chat.chatId)) !== undefined) return false;
    this.decrypted.forget(chat.chatId);
    return true;
  }

  forget(chatId: number): void {
    this.decrypted.forget(chatId);
  }
}
