/**
 * The rules both stores (file/, pg/) keep, written once: how a record is built from a patch and
 * validated, when a compare-and-set may apply (transactions, documents), which transactions are
 * "hot", how api keys are sealed and opened, and which stored records are refused. The backends only
 * read, write and query; each calls these at the same points so that the contract suite
 * (test/store/contract.test.ts) sees one behaviour.
 */
import * as z from "../tools/zod.js";
import type { ChatPatch, Doc, DocChange, DocExpect, DocKind, DocQuery, FlowState, LogEntry, LogPage, NewDoc, NewTx, TxPatch } from "./api.js";
import { decrypt, DecryptedKeys, encrypt, keyAad, keyCheck, keyCheckMatches, keyDigest, maskKey } from "./crypto.js";
import { ApiKeyDecryptError, StoreCorruptError, StoreSecretMismatchError } from "./errors.js";
import { deepFreeze, frozenCopy, frozenOutput } from "./frozen.js";
import { exactCheck, quickChecks } from "./recordCheck.js";
import { walletAfter, walletUnsettled } from "./walletRules.js";
import { ChatRecordSchema, describeIssues, TxRecordSchema } from "./records.js";
import { OPEN_STATUSES, type ChatRecord, type TxRecord, type TxStatus } from "./records.js";

/**
 * Final records whose last change is older than this are history: the file store moves them to its
 * archive, and `findHotTx` no longer finds them on either store. A week keeps the first history
 * pages, fee estimates and repeat checks in memory (bench/results.md).
 */
export const HOT_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether `findHotTx` may answer with `rec` at `now`: open ones always, final ones changed within `hotForMs`. */
export function isHot(rec: TxRecord, now: number, hotForMs = HOT_FOR_MS): boolean {
  // What the wallets still owe (a hold, a paid deposit's credit) stays where the store looks at once.
  return OPEN_STATUSES.has(rec.status) || walletUnsettled(rec) || rec.updatedAt >= now - hotForMs;
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
  const rec = validTx(frozenCopy({ ...input, createdAt: input.createdAt ?? now, updatedAt: input.updatedAt ?? now }, "tx"));
  return withWalletRules(undefined, rec);
}

/** `old` after `patch`: kind, refId, chatId and createdAt never change; `detail` must fit the kind. */
export function patchTx(old: TxRecord, patch: TxPatch, now: number): TxRecord {
  // The spread loses the kind/detail pairing for the compiler; the schema checks it.
  const rec = validTx(
    frozenCopy({ ...old, ...patch, kind: old.kind, refId: old.refId, chatId: old.chatId, createdAt: old.createdAt, updatedAt: now }, "tx") as TxRecord,
  );
  return withWalletRules(old, rec);
}

/** `rec` with its wallet part as walletRules.ts says (a failure's release made in the same write). */
function withWalletRules(old: TxRecord | undefined, rec: TxRecord): TxRecord {
  const part = walletAfter(old, rec);
  return part === rec.wallet ? rec : deepFreeze({ ...rec, wallet: part } as TxRecord);
}

function validTx(copy: TxRecord): TxRecord {
  if (exactCheck(TxRecordSchema)?.(copy)) return copy; // frozen by frozenCopy, and zod would return it as is
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
export const LOST_KEY_PATCH: Partial<ChatRecord> = { apiKeyEnc: undefined, keyMask: undefined, keyDigest: undefined, linkedAt: undefined, keyLost: true, awaitingKey: true };
/** What clearApiKey removes. */
export const CLEARED_KEY_PATCH: Partial<ChatRecord> = { apiKeyEnc: undefined, keyMask: undefined, keyDigest: undefined, linkedAt: undefined };

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
    return {
      apiKeyEnc: encrypt(this.key, rawKey, keyAad(chatId)),
      keyMask: maskKey(rawKey),
      keyDigest: keyDigest(this.key, rawKey),
      linkedAt: now,
      inactive: undefined,
      keyLost: undefined,
    };
  }

  /** The digest `seal` stores beside a key (a store may narrow its query with it). */
  digest(rawKey: string): string {
    return keyDigest(this.key, rawKey);
  }

  /**
   * Whether `chat` holds `rawKey`: by its digest, or, for a key saved before digests (none stored),
   * by decrypting it once (cached). An unreadable key holds nothing.
   */
  holds(chat: ChatRecord, rawKey: string): boolean {
    if (chat.apiKeyEnc === undefined) return false;
    if (chat.keyDigest !== undefined) return chat.keyDigest === keyDigest(this.key, rawKey);
    return this.decrypted.read(this.key, chat.chatId, chat.apiKeyEnc) === rawKey;
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

// ---- documents and logs ---------------------------------------------------------------------------

export const KIND_NAME = /^[a-z][a-z0-9_]{1,30}$/;
export const DOC_ID_MAX = 100;
export const DOC_STATE_MAX = 100;
export const LOG_PAGE_DEFAULT = 20;
export const LOG_PAGE_MAX = 500;

/** The kind's name, checked: it names a file and a column value. */
export function kindName(kind: DocKind<unknown>): string {
  if (typeof kind?.name !== "string" || !KIND_NAME.test(kind.name)) {
    throw new TypeError(`Invalid record kind name ${JSON.stringify(kind?.name)}: expected ${String(KIND_NAME)}.`);
  }
  return kind.name;
}

function checkId(id: unknown): string {
  if (typeof id !== "string" || id.length < 1 || id.length > DOC_ID_MAX) throw new TypeError(`A document id is 1..${DOC_ID_MAX} characters.`);
  return id;
}

function checkState(state: unknown): string {
  if (typeof state !== "string" || state.length < 1 || state.length > DOC_STATE_MAX) {
    throw new TypeError(`A document state is 1..${DOC_STATE_MAX} characters.`);
  }
  return state;
}

function checkOwner(owner: unknown): number {
  if (!Number.isSafeInteger(owner)) throw new TypeError("A record owner is an integer (a chat id, 0 = the whole bot).");
  return owner as number;
}

/**
 * A value about to be written: the kind's schema's output for a JSON copy of it, else TypeError. The
 * output must be JSON too (a schema that makes a Date is refused here, not when read back); frozen in
 * place rather than copied again (frozen.ts).
 */
function validValue<T>(kind: DocKind<T>, value: unknown, what: string): T {
  const copied = frozenCopy(value, what);
  if (exactCheck(kind.schema)?.(copied)) return copied as T;
  const parsed = z.safeParse(kind.schema, copied);
  if (!parsed.success) throw new TypeError(`Invalid ${what}: ${describeIssues(parsed.error)}`);
  return frozenOutput(parsed.data, what);
}

/** A new document, validated and frozen: version 1, created and updated `now`. */
export function buildNewDoc<T>(kind: DocKind<T>, input: NewDoc<T>, now: number): Doc<T> {
  const name = kindName(kind);
  const id = checkId(input.id);
  const value = validValue(kind, input.value, `${name} ${id}`);
  return Object.freeze({ kind: name, id, owner: checkOwner(input.owner), state: checkState(input.state), version: 1, createdAt: now, updatedAt: now, value });
}

/** The compare-and-set rule of updateDoc: the version and/or the state matches (at least one asked). */
export function docMatches(current: Doc<unknown> | undefined, expect: DocExpect): current is Doc<unknown> {
  checkExpect(expect);
  if (current === undefined) return false;
  if (expect.version !== undefined && current.version !== expect.version) return false;
  return expect.states === undefined || expect.states.includes(current.state);
}

/** Refuses an updateDoc that asks nothing: it would overwrite whatever is there. */
export function checkExpect(expect: DocExpect): void {
  if (expect?.version === undefined && expect?.states === undefined) {
    throw new TypeError("updateDoc needs a version or states to compare with.");
  }
}

/** The new state and value of a change, validated (the value with the kind's schema); the rest is the backend's. */
export function docChange<T>(kind: DocKind<T>, id: string, change: DocChange<T>): { state?: string; value?: T } {
  const name = kindName(kind);
  return {
    ...(change.state !== undefined && { state: checkState(change.state) }),
    ...(change.value !== undefined && { value: validValue(kind, change.value, `${name} ${id}`) }),
  };
}

/** `old` after a validated change (docChange): version + 1, updated `now`. */
export function changedDoc<T>(old: Doc<T>, change: { state?: string; value?: T }, now: number): Doc<T> {
  return Object.freeze({
    ...old,
    state: change.state ?? old.state,
    value: change.value ?? old.value,
    version: old.version + 1,
    updatedAt: now,
  });
}

/** A stored document without its value's check (the kind's schema): what migrate-store can check of any kind. */
export const StoredDocFrame = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(DOC_ID_MAX)),
  owner: z.int(),
  state: z.string().check(z.minLength(1), z.maxLength(DOC_STATE_MAX)),
  version: z.int().check(z.positive()),
  createdAt: z.int(),
  updatedAt: z.int(),
  value: z.unknown(),
});

/**
 * A document read from storage (`where` names the file or row, `label` the entry in a file): its frame
 * and its value (with the kind's schema) are checked, else StoreCorruptError. Frozen.
 */
export function storedDoc<T>(kind: DocKind<T>, where: string, data: unknown, label = ""): Doc<T> {
  const name = kindName(kind);
  const frame = StoredDocFrame.safeParse(data);
  if (!frame.success) throw new StoreCorruptError(where, describeIssues(frame.error, label));
  const value = z.safeParse(kind.schema, frame.data.value);
  if (!value.success) throw new StoreCorruptError(where, describeIssues(value.error, `${label}value.`));
  const { id, owner, state, version, createdAt, updatedAt } = frame.data;
  return deepFreeze({ kind: name, id, owner, state, version, createdAt, updatedAt, value: value.data });
}

/** Whether a document passes listDocs' filters (the file store's scan; PostgreSQL says it in SQL). */
export function docInQuery(doc: Doc<unknown>, query: DocQuery): boolean {
  return (
    (query.owner === undefined || doc.owner === query.owner) &&
    (query.states === undefined || query.states.includes(doc.state)) &&
    (query.createdSince === undefined || doc.createdAt >= query.createdSince)
  );
}

/** listDocs' order: oldest first, then by id (PostgreSQL: id COLLATE "C", the same order). */
export function compareDocs(a: Doc<unknown>, b: Doc<unknown>): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** listDocs' limit: all when omitted. */
export function docLimit(limit: number | undefined): number {
  return limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(limit));
}

/** Checks what appendLog is given before the backend picks a seq; returns the validated entry. */
export function validLogEntry<T>(kind: DocKind<T>, owner: number, entry: T): T {
  checkOwner(owner);
  return validValue(kind, entry, `${kindName(kind)} log entry`);
}

/** A stored log entry without its entry's check. */
export const StoredLogFrame = z.object({ seq: z.int().check(z.positive()), owner: z.int(), at: z.int(), entry: z.unknown() });

/** A log entry read from storage (`where` names the file line or row), checked, else StoreCorruptError. Frozen. */
export function storedLogEntry<T>(kind: DocKind<T>, where: string, data: unknown, label = ""): LogEntry<T> {
  const frame = StoredLogFrame.safeParse(data);
  if (!frame.success) throw new StoreCorruptError(where, describeIssues(frame.error, label));
  const entry = z.safeParse(kind.schema, frame.data.entry);
  if (!entry.success) throw new StoreCorruptError(where, describeIssues(entry.error, `${label}entry.`));
  const { seq, owner, at } = frame.data;
  return deepFreeze({ seq, owner, at, entry: entry.data });
}

/** listLog's page: beforeSeq (none: from the newest) and a limit of 20 by default, at most 500. */
export function logPage(page: LogPage | undefined): { beforeSeq: number | undefined; limit: number } {
  const limit = page?.limit === undefined ? LOG_PAGE_DEFAULT : Math.min(LOG_PAGE_MAX, Math.max(0, Math.floor(page.limit)));
  return { beforeSeq: page?.beforeSeq, limit };
}
