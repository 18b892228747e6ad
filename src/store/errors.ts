/** Errors the store throws on purpose; callers match on the class, people read the message. */

/** A store file or row cannot be used as-is. The store never overwrites it: a person has to look first. */
export class StoreCorruptError extends Error {
  override readonly name = "StoreCorruptError";
  constructor(
    /** Absolute path of the offending file, or the table and key of the offending row ("table txs, R1"). */
    readonly file: string,
    reason: string,
  ) {
    super(`Store ${file.startsWith("table ") ? "" : "file "}${file} cannot be used: ${reason}. It was left untouched; restore it from a backup or move it away.`);
  }
}

/** An api key does not decrypt: the store secret differs from the one it was saved with, or the data was damaged. */
export class ApiKeyDecryptError extends Error {
  override readonly name = "ApiKeyDecryptError";
  constructor(readonly chatId: number) {
    super(
      `Cannot decrypt the api key of chat ${chatId}: the store secret is not the one the key was saved with, or the stored value is damaged.`,
    );
  }
}

/** Refused to encrypt a new key with a secret that does not match the keys already stored. */
export class StoreSecretMismatchError extends Error {
  override readonly name = "StoreSecretMismatchError";
  constructor() {
    super("The store secret does not match the one this store was created with; refusing to mix keys encrypted under two secrets.");
  }
}

export class DuplicateTxError extends Error {
  override readonly name = "DuplicateTxError";
  constructor(readonly refId: string) {
    super(`A transaction with refId ${refId} already exists.`);
  }
}

/** createDoc: a document of that kind with that id exists already. */
export class DuplicateDocError extends Error {
  override readonly name = "DuplicateDocError";
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super(`A ${kind} document with id ${id} already exists.`);
  }
}

export class UnknownTxError extends Error {
  override readonly name = "UnknownTxError";
  constructor(readonly refId: string) {
    super(`No transaction with refId ${refId}.`);
  }
}

export class StoreClosedError extends Error {
  override readonly name = "StoreClosedError";
  constructor() {
    super("The store is closed; changes are no longer accepted.");
  }
}

/**
 * The database cannot be reached: either the query was not sent (it is known to be unreachable
 * until a probe hears it again) or it got no answer in time (it may still run when the database wakes).
 */
export class DatabaseUnreachableError extends Error {
  override readonly name = "DatabaseUnreachableError";
  constructor(readonly why: "not sent" | "no answer") {
    super(why === "not sent" ? "The database cannot be reached; the query was not sent." : "The database did not answer in time.");
  }
}

/** A write would take a wallet's available balance below zero (docs/wallets.md): nothing was written. */
export class WalletShortError extends Error {
  override readonly name = "WalletShortError";
  constructor(
    readonly chat: number,
    readonly available: number,
    readonly needed: number,
  ) {
    super(`Wallet ${chat} has ${available} available, ${needed} needed.`);
  }
}
