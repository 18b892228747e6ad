/**
 * An owner's transaction PIN and money-out limits (docs/pin.md): the state machine no PIN / set /
 * locked(until) / reset-blocked(until) / frozen, kept in one document per owner, written by
 * compare-and-set on its version. The PIN itself is kept only as a salted scrypt hash, compared in
 * constant time; nothing here logs.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { DuplicateDocError, type DocKind, type Store, type TxRecord } from "../store/index.js";
import { formatWib } from "../tools/time.js";
import * as z from "../tools/zod.js";

export const PIN_LENGTH = 6;
/** Wrong tries in a row that lock money-out. */
export const PIN_MAX_TRIES = 5;
/** The first lock; each further lock lasts twice as long as the one before. */
export const PIN_LOCK_MS = 15 * 60_000;
/** Money-out after a forgotten PIN was reset by the API key. */
export const PIN_RESET_BLOCK_MS = 24 * 60 * 60_000;
/** A raised daily limit counts this long after it was asked. */
export const LIMIT_RAISE_DELAY_MS = 24 * 60 * 60_000;

const SCRYPT_KEY_BYTES = 32;

const PinStateSchema = z.object({
  /** "scrypt:<salt hex>:<key hex>"; absent: no PIN. */
  hash: z.optional(z.string().check(z.maxLength(200))),
  /** Wrong tries in a row since the last right PIN or lock. */
  tries: z.int().check(z.nonnegative()),
  /** Locks since the last right PIN: the next lasts PIN_LOCK_MS × 2^locks. */
  locks: z.int().check(z.nonnegative()),
  lockedUntil: z.optional(z.number()),
  resetBlockedUntil: z.optional(z.number()),
  /** "Bukan saya": money-out refused until the PIN is entered again. */
  frozen: z.optional(z.boolean()),
  /** Purchases costing more than this ask the PIN; absent: purchases never do. */
  purchaseAbove: z.optional(z.int().check(z.positive())),
  /** Money-out per WIB day; absent: none. */
  dailyLimit: z.optional(z.int().check(z.positive())),
  /** A raise (or removal: no amount) asked for, counting from `from`. */
  limitRaise: z.optional(z.object({ amount: z.optional(z.int().check(z.positive())), from: z.number() })),
  /** The WIB day the owner was last told no PIN is set. */
  nagDay: z.optional(z.string().check(z.maxLength(10))),
});
export type PinState = z.infer<typeof PinStateSchema>;
export const PinKind: DocKind<PinState> = { name: "pin", schema: PinStateSchema };

const EMPTY: PinState = { tries: 0, locks: 0 };

/** Why money-out is refused now, if it is. */
export type MoneyOutBar =
  | { kind: "locked"; until: number }
  | { kind: "reset-blocked"; until: number }
  | { kind: "frozen" };

export type PinCheck =
  | { kind: "ok" }
  | { kind: "wrong"; left: number }
  /** `now`: this try made the lock (the owner is told once). */
  | { kind: "locked"; until: number; now: boolean }
  | { kind: "none" };

/** A PIN anyone would try first: 123456, 654321, one digit six times. */
export function isWeakPin(pin: string): boolean {
  return pin === "123456" || pin === "654321" || /^(\d)\1+$/.test(pin);
}

export const isPinShaped = (pin: string): boolean => new RegExp(`^\\d{${PIN_LENGTH}}$`).test(pin);

function derive(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(pin, salt, SCRYPT_KEY_BYTES, (err, key) => (err ? reject(err) : resolve(key))));
}

async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt:${salt.toString("hex")}:${(await derive(pin, salt)).toString("hex")}`;
}

async function matches(pin: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split(":");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const want = Buffer.from(key, "hex");
  const got = await derive(pin, Buffer.from(salt, "hex"));
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The WIB day ("YYYY-MM-DD") of an instant. */
export const wibDay = (at: number): string => formatWib(at).slice(0, 10);

/** The daily limit in force at `now` (a raise asked less than 24 h ago does not count yet). */
export function limitInForce(s: PinState, now: number): number | undefined {
  return s.limitRaise && now >= s.limitRaise.from ? s.limitRaise.amount : s.dailyLimit;
}

/** Money-out records count from the Confirm on (not drafts, not cancelled, not failed). */
const COUNTED = new Set<TxRecord["status"]>(["sending", "unknown", "pending", "processing", "success"]);

export class Pins {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  async state(chat: number): Promise<PinState> {
    return (await this.store.getDoc(PinKind, String(chat)))?.value ?? EMPTY;
  }

  /** Applies `change` by compare-and-set, again on a lost race; returns what was written. */
  private async update(chat: number, change: (s: PinState) => PinState): Promise<PinState> {
    for (;;) {
      const doc = await this.store.getDoc(PinKind, String(chat));
      const value = change(doc?.value ?? EMPTY);
      if (!doc) {
        try {
          await this.store.createDoc(PinKind, { id: String(chat), owner: chat, state: "active", value });
          return value;
        } catch (err) {
          if (err instanceof DuplicateDocError) continue;
          throw err;
        }
      }
      if (await this.store.updateDoc(PinKind, String(chat), { version: doc.version }, { value })) return value;
    }
  }

  async isSet(chat: number): Promise<boolean> {
    return (await this.state(chat)).hash !== undefined;
  }

  /** Sets (or replaces) the PIN; "weak" and "shape" are refused. The caller asked the old one first. */
  async setPin(chat: number, pin: string): Promise<"ok" | "weak" | "shape"> {
    if (!isPinShaped(pin)) return "shape";
    if (isWeakPin(pin)) return "weak";
    const hash = await hashPin(pin);
    await this.update(chat, (s) => ({ ...s, hash, tries: 0 }));
    return "ok";
  }

  /** Whether `pin` is the chat's PIN, counting wrong tries: the fifth in a row locks. A right PIN unfreezes. */
  async check(chat: number, pin: string): Promise<PinCheck> {
    const s = await this.state(chat);
    const now = this.now();
    if (s.hash === undefined) return { kind: "none" };
    if (s.lockedUntil !== undefined && now < s.lockedUntil) return { kind: "locked", until: s.lockedUntil, now: false };
    const right = isPinShaped(pin) && (await matches(pin, s.hash));
    let result: PinCheck = { kind: "ok" };
    await this.update(chat, (cur) => {
      if (right) {
        result = { kind: "ok" };
        return { ...cur, tries: 0, locks: 0, lockedUntil: undefined, frozen: undefined };
      }
      const tries = (cur.lockedUntil !== undefined && now >= cur.lockedUntil ? 0 : cur.tries) + 1;
      if (tries < PIN_MAX_TRIES) {
        result = { kind: "wrong", left: PIN_MAX_TRIES - tries };
        return { ...cur, tries, lockedUntil: cur.lockedUntil !== undefined && now >= cur.lockedUntil ? undefined : cur.lockedUntil };
      }
      const until = now + PIN_LOCK_MS * 2 ** cur.locks;
      result = { kind: "locked", until, now: true };
      return { ...cur, tries: 0, locks: cur.locks + 1, lockedUntil: until };
    });
    return result;
  }

  /** Why money-out is refused now; undefined when it is not. */
  async moneyOutBar(chat: number): Promise<MoneyOutBar | undefined> {
    return barOf(await this.state(chat), this.now());
  }

  /** The forgotten PIN, reset by the API key: the PIN removed, money-out blocked for 24 h. */
  async reset(chat: number): Promise<number> {
    const until = this.now() + PIN_RESET_BLOCK_MS;
    await this.update(chat, (s) => ({ ...s, hash: undefined, tries: 0, locks: 0, lockedUntil: undefined, resetBlockedUntil: until }));
    return until;
  }

  /** A staff member's or downline's PIN removed by its upline (who vouches: no 24 h block); the limits stay. */
  async resetByUpline(chat: number): Promise<void> {
    await this.update(chat, (s) => ({ ...s, hash: undefined, tries: 0, locks: 0, lockedUntil: undefined, frozen: undefined }));
  }

  async freeze(chat: number): Promise<void> {
    await this.update(chat, (s) => ({ ...s, frozen: true }));
  }

  /** Purchases above `amount` ask the PIN; undefined: none do. */
  async setPurchaseAbove(chat: number, amount: number | undefined): Promise<void> {
    await this.update(chat, (s) => ({ ...s, purchaseAbove: amount }));
  }

  /**
   * A new daily limit (undefined: none). Lower than the one in force (or a first one): at once.
   * Higher (or none): from 24 h later, the one in force holding until then. Returns when it counts.
   */
  async setDailyLimit(chat: number, amount: number | undefined): Promise<number> {
    const now = this.now();
    let from = now;
    await this.update(chat, (s) => {
      const current = limitInForce(s, now);
      const lower = amount !== undefined && (current === undefined || amount <= current);
      if (lower) {
        from = now;
        return { ...s, dailyLimit: amount, limitRaise: undefined };
      }
      from = now + LIMIT_RAISE_DELAY_MS;
      return { ...s, dailyLimit: current, limitRaise: { amount, from } };
    });
    return from;
  }

  /** What a new money-out of `amount` would leave of today's limit: undefined when within it. */
  async overLimit(chat: number, amount: number): Promise<{ limit: number; spent: number } | undefined> {
    const now = this.now();
    const limit = limitInForce(await this.state(chat), now);
    if (limit === undefined) return undefined;
    const spent = await this.spentToday(chat, now);
    return spent + amount > limit ? { limit, spent } : undefined;
  }

  /** Money-out of the WIB day: the owner's transfers from their Confirm on (payouts add their kind here). */
  async spentToday(chat: number, now: number): Promise<number> {
    const day = wibDay(now);
    const txs = await this.store.txsOfMonth(chat, day.slice(0, 7));
    return txs.filter((tx) => tx.kind === "transfer" && COUNTED.has(tx.status) && wibDay(tx.createdAt) === day).reduce((sum, tx) => sum + tx.amount, 0);
  }

  /** True once a WIB day while no PIN is set (the owner is told how); marks the day. */
  async nagDue(chat: number): Promise<boolean> {
    const s = await this.state(chat);
    const day = wibDay(this.now());
    if (s.hash !== undefined || s.nagDay === day) return false;
    await this.update(chat, (cur) => ({ ...cur, nagDay: day }));
    return true;
  }
}

export function barOf(s: PinState, now: number): MoneyOutBar | undefined {
  if (s.lockedUntil !== undefined && now < s.lockedUntil) return { kind: "locked", until: s.lockedUntil };
  if (s.resetBlockedUntil !== undefined && now < s.resetBlockedUntil) return { kind: "reset-blocked", until: s.resetBlockedUntil };
  if (s.frozen) return { kind: "frozen" };
  return undefined;
}
