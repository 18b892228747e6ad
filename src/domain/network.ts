/**
 * An owner's network of downlines (docs/wallets.md): one-person invitations (24 h, single use, kept by
 * the hash of their token), the members (who, which level, since when, suspended) and the owner's
 * levels, each a `/markup` rule set. Whose downline a chat is lives on its own record (`downlineOf`),
 * which every update reads: a change there counts from the next tap on any process.
 */
import type { DocKind, PricingRules, Store } from "../store/index.js";
import * as z from "../tools/zod.js";
import { PricingRulesSchema } from "../store/index.js";
import { applyMarkup, markupFor } from "./pricing.js";
import { INVITE_TTL_MS, newToken, tokenHash } from "./staff.js";
import { randomBytes } from "node:crypto";

/** The `/start` payload of a downline's invitation link: `dl_<token>`. */
export const DOWNLINE_INVITE_PREFIX = "dl_";
/** Most downlines one owner may have (members plus open invitations). */
export const DOWNLINES_MAX = 1000;

const LevelSchema = z.object({ name: z.string().check(z.minLength(1), z.maxLength(30)), rules: PricingRulesSchema });
export type Level = z.infer<typeof LevelSchema>;
const LevelsSchema = z.object({ levels: z.array(LevelSchema).check(z.minLength(1), z.maxLength(10)) });
/** The owner's levels; id: the owner's chat id. */
export const LevelsKind: DocKind<z.infer<typeof LevelsSchema>> = { name: "network_levels", schema: LevelsSchema };
/** Three to start; the owner renames and reprices them. */
export const DEFAULT_LEVELS: readonly Level[] = [
  { name: "Basic", rules: { all: { flat: 1500 } } },
  { name: "Gold", rules: { all: { flat: 1000 } } },
  { name: "Platinum", rules: { all: { flat: 500 } } },
];

const DownlineInviteSchema = z.object({ level: z.int().check(z.nonnegative()), expiresAt: z.number(), usedBy: z.optional(z.int()) });
/** open -> used | revoked; id: the token's hash. */
export const DownlineInviteKind: DocKind<z.infer<typeof DownlineInviteSchema>> = { name: "downline_invite", schema: DownlineInviteSchema };

const DownlineSchema = z.object({ chat: z.int(), name: z.string(), level: z.int().check(z.nonnegative()), joinedAt: z.number(), suspended: z.optional(z.boolean()) });
export type Downline = z.infer<typeof DownlineSchema>;
/** active | removed; id `<owner>:<chat>`. */
export const DownlineKind: DocKind<Downline> = { name: "downline", schema: DownlineSchema };

const AdjustSchema = z.object({ chat: z.int(), way: z.enum(["in", "out"]), promptId: z.int(), amount: z.optional(z.int()), reason: z.optional(z.string()) });
export type Adjustment = z.infer<typeof AdjustSchema>;
/**
 * An adjustment by hand of a downline's wallet, from the owner's tap to its entry (id: the entry's ref):
 * asking -> confirming -> posting -> done | refused. Its ref is made with the question, so a double tap
 * on Confirm, or a Confirm again after a stop, posts one entry.
 */
export const AdjustKind: DocKind<Adjustment> = { name: "wallet_adjust", schema: AdjustSchema };

/** Why an invitation cannot be taken: it says so, and nothing changes. */
export type DownlineJoinRefusal = "unknown" | "expired" | "used" | "self" | "owner" | "taken" | "already" | "full";

export interface DownlineJoiner {
  chat: number;
  name: string;
  /** Has a key of its own, or is someone's staff or downline already (`already` when of this owner). */
  ownsKey: boolean;
  memberOf?: number | undefined;
}

function memberId(owner: number, chat: number): string {
  return `${owner}:${chat}`;
}

/** What a downline of `level` pays for a product of `cost`: never below cost, rounded up as /markup rounds. */
export function levelPrice(level: Level, cost: number, code: string, categoryKey: string): number {
  const found = markupFor(level.rules, code, categoryKey);
  const fixed = level.rules.fixed?.[code];
  if (fixed !== undefined) return Math.max(cost, fixed);
  return found ? Math.max(cost, applyMarkup(cost, found.markup)) : cost;
}

/** An owner whose downline found the provider balance short is told at most once in this long. */
const TELL_SHORT_EVERY_MS = 60 * 60_000;

export class Network {
  /** When each owner was last told a downline's sale found the balance short (this process; a repeat is harmless). */
  private readonly toldShort = new Map<number, number>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Whether the owner should be told now that the balance is short (and notes it): once an hour at most. */
  tellShortNow(owner: number): boolean {
    const now = this.now();
    const last = this.toldShort.get(owner);
    if (last !== undefined && now >= last && now - last < TELL_SHORT_EVERY_MS) return false;
    this.toldShort.set(owner, now);
    return true;
  }

  async levels(owner: number): Promise<readonly Level[]> {
    return (await this.store.getDoc(LevelsKind, String(owner)))?.value.levels ?? DEFAULT_LEVELS;
  }

  /** The owner renames or reprices level `index`. */
  async setLevel(owner: number, index: number, level: Level): Promise<void> {
    const id = String(owner);
    const doc = await this.store.getDoc(LevelsKind, id);
    const levels = [...(doc?.value.levels ?? DEFAULT_LEVELS)];
    if (index < 0 || index >= levels.length) throw new RangeError(`no level ${index}`);
    levels[index] = level;
    if (doc) await this.store.updateDoc(LevelsKind, id, { version: doc.version }, { value: { levels } });
    else await this.store.createDoc(LevelsKind, { id, owner, state: "active", value: { levels } });
  }

  async invite(owner: number, level: number): Promise<{ token: string; expiresAt: number } | "full"> {
    if ((await this.members(owner)).length >= DOWNLINES_MAX) return "full";
    const token = newToken();
    const expiresAt = this.now() + INVITE_TTL_MS;
    await this.store.createDoc(DownlineInviteKind, { id: tokenHash(token), owner, state: "open", value: { level, expiresAt } });
    await this.store.flush();
    return { token, expiresAt };
  }

  /** Takes an invitation (compare-and-set: of two taps one wins); the joiner's record then names its owner and level. */
  async join(token: string, joiner: DownlineJoiner): Promise<{ owner: number; level: number } | DownlineJoinRefusal> {
    const doc = await this.store.getDoc(DownlineInviteKind, tokenHash(token));
    if (!doc) return "unknown";
    if (doc.state !== "open") return "used";
    if (doc.value.expiresAt <= this.now()) return "expired";
    const owner = doc.owner;
    if (joiner.chat === owner) return "self";
    if (joiner.memberOf === owner) return "already";
    if (joiner.memberOf !== undefined) return "taken";
    if (joiner.ownsKey) return "owner";
    if ((await this.members(owner)).length >= DOWNLINES_MAX) return "full";
    const taken = await this.store.updateDoc(DownlineInviteKind, doc.id, { states: ["open"] }, { state: "used", value: { ...doc.value, usedBy: joiner.chat } });
    if (!taken) return "used";
    const joinedAt = this.now();
    const level = doc.value.level;
    await this.store.updateChat(joiner.chat, { downlineOf: { owner, upline: owner, level, since: joinedAt } });
    const member: Downline = { chat: joiner.chat, name: joiner.name, level, joinedAt };
    const id = memberId(owner, joiner.chat);
    const earlier = await this.store.getDoc(DownlineKind, id);
    if (earlier) await this.store.updateDoc(DownlineKind, id, { version: earlier.version }, { state: "active", value: member });
    else await this.store.createDoc(DownlineKind, { id, owner, state: "active", value: member });
    await this.store.flush();
    return { owner, level };
  }

  /** The owner's downlines now, oldest first. */
  async members(owner: number): Promise<Downline[]> {
    return (await this.store.listDocs(DownlineKind, { owner, states: ["active"] })).map((d) => d.value);
  }

  async member(owner: number, chat: number): Promise<Downline | undefined> {
    const doc = await this.store.getDoc(DownlineKind, memberId(owner, chat));
    return doc?.state === "active" ? doc.value : undefined;
  }

  /** A new level or suspension: on the member's list and on its own record (which every update reads). */
  async change(owner: number, chat: number, change: { level?: number; suspended?: boolean }): Promise<Downline | undefined> {
    const id = memberId(owner, chat);
    const doc = await this.store.getDoc(DownlineKind, id);
    if (doc?.state !== "active") return undefined;
    const value: Downline = { ...doc.value, ...(change.level !== undefined ? { level: change.level } : {}), ...(change.suspended !== undefined ? { suspended: change.suspended } : {}) };
    const record = await this.store.getChat(chat);
    if (record?.downlineOf?.owner === owner) {
      await this.store.updateChat(chat, { downlineOf: { ...record.downlineOf, level: value.level, suspended: value.suspended } });
    }
    await this.store.updateDoc(DownlineKind, id, { version: doc.version }, { value });
    await this.store.flush();
    return value;
  }

  /** Ends a membership; only with an empty wallet (nothing held, nothing owed). */
  async remove(owner: number, chat: number): Promise<"removed" | "not-empty" | "unknown"> {
    const id = memberId(owner, chat);
    const doc = await this.store.getDoc(DownlineKind, id);
    if (doc?.state !== "active") return "unknown";
    const w = await this.store.wallet(chat);
    if (w.balance !== 0 || w.held !== 0) return "not-empty";
    const record = await this.store.getChat(chat);
    if (record?.downlineOf?.owner === owner) await this.store.updateChat(chat, { downlineOf: undefined });
    await this.store.updateDoc(DownlineKind, id, { version: doc.version }, { state: "removed" });
    await this.store.flush();
    return "removed";
  }

  /** The owner asked for an amount and a reason (its question is message `promptId`): the adjustment's ref. */
  async askAdjust(owner: number, chat: number, way: "in" | "out", promptId: number): Promise<string> {
    const ref = `WA${this.now().toString(36)}${randomBytes(4).toString("hex")}`;
    await this.store.createDoc(AdjustKind, { id: ref, owner, state: "asking", value: { chat, way, promptId } });
    return ref;
  }

  /** The adjustment whose question is message `promptId`, still waiting for its answer. */
  async askedBy(owner: number, promptId: number): Promise<{ ref: string; value: Adjustment } | undefined> {
    const doc = (await this.store.listDocs(AdjustKind, { owner, states: ["asking"] })).find((d) => d.value.promptId === promptId);
    return doc && { ref: doc.id, value: doc.value };
  }

  /** The answer: asking -> confirming (false when it was answered already). */
  async answered(ref: string, value: Adjustment, amount: number, reason: string): Promise<boolean> {
    return (await this.store.updateDoc(AdjustKind, ref, { states: ["asking"] }, { state: "confirming", value: { ...value, amount, reason } })) !== undefined;
  }

  /** Confirm: confirming (or posting, after a stop) -> posting; undefined when another tap took it or it is not the owner's. */
  async takeAdjustment(owner: number, ref: string): Promise<Required<Adjustment> | undefined> {
    const doc = await this.store.getDoc(AdjustKind, ref);
    const { amount, reason } = doc?.value ?? {};
    if (!doc || doc.owner !== owner || amount === undefined || reason === undefined) return undefined;
    const taken = await this.store.updateDoc(AdjustKind, ref, { states: ["confirming", "posting"] }, { state: "posting" });
    return taken ? { ...doc.value, amount, reason } : undefined;
  }

  async adjustmentEnded(ref: string, state: "done" | "refused"): Promise<void> {
    await this.store.updateDoc(AdjustKind, ref, { states: ["posting"] }, { state });
  }
}

/** The price rules of a level, for code that quotes a product the way /markup does. */
export function rulesOf(level: Level): PricingRules {
  return level.rules;
}
