/**
 * An owner's network of downlines (docs/wallets.md): one-person invitations (24 h, single use, kept by
 * the hash of their token), the members (who, which level, since when, suspended) and the owner's
 * levels, each a `/markup` rule set. Whose downline a chat is lives on its own record (`downlineOf`),
 * which every update reads: a change there counts from the next tap on any process.
 */
import type { ChatRecord, DocKind, PricingRules, Store } from "../store/index.js";
import * as z from "../tools/zod.js";
import { PricingRulesSchema } from "../store/index.js";
import { applyMarkup, markupFor } from "./pricing.js";
import { INVITE_TTL_MS, newToken, tokenHash } from "./staff.js";
import { randomBytes } from "node:crypto";

/** The `/start` payload of a downline's invitation link: `dl_<token>`. */
export const DOWNLINE_INVITE_PREFIX = "dl_";
/** Most downlines one owner may have (members plus open invitations). */
export const DOWNLINES_MAX = 1000;
/** How many levels of downlines an owner's network has at most. */
export const MAX_DEPTH = 3;

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

/** `upline`: the downline that invited (absent: the owner). */
const DownlineInviteSchema = z.object({ level: z.int().check(z.nonnegative()), expiresAt: z.number(), usedBy: z.optional(z.int()), upline: z.optional(z.int()) });
/** open -> used | revoked; id: the token's hash. */
export const DownlineInviteKind: DocKind<z.infer<typeof DownlineInviteSchema>> = { name: "downline_invite", schema: DownlineInviteSchema };

/** `upline`: the downline that invited it (absent: the owner); `mayInvite`: the owner allows it to invite. */
const DownlineSchema = z.object({
  chat: z.int(),
  name: z.string(),
  level: z.int().check(z.nonnegative()),
  joinedAt: z.number(),
  suspended: z.optional(z.boolean()),
  upline: z.optional(z.int()),
  mayInvite: z.optional(z.boolean()),
});
export type Downline = z.infer<typeof DownlineSchema>;
/** active | removed; id `<owner>:<chat>`. */
export const DownlineKind: DocKind<Downline> = { name: "downline", schema: DownlineSchema };

const DownlineMarkupSchema = z.object({ rules: PricingRulesSchema });
/** A downline's markup for its own downlines (a /markup rule set); id: the downline's chat. */
export const DownlineMarkupKind: DocKind<z.infer<typeof DownlineMarkupSchema>> = { name: "downline_markup", schema: DownlineMarkupSchema };
/** A downline's markup for its own downlines until it sets one: fixed rupiah. */
export const DEFAULT_DOWNLINE_MARKUP: PricingRules = { all: { flat: 500 } };

/** The chain above a buyer: the top downline's level, then each upline that is a downline (top first) with its markup. */
export interface Chain {
  readonly owner: number;
  readonly level: Level;
  /** The downlines from the top down to the buyer's upline; empty for a direct downline. */
  readonly uplines: readonly { readonly chat: number; readonly markup: PricingRules }[];
}

const AdjustSchema = z.object({ chat: z.int(), way: z.enum(["in", "out"]), promptId: z.int(), amount: z.optional(z.int()), reason: z.optional(z.string()) });
export type Adjustment = z.infer<typeof AdjustSchema>;
/**
 * An adjustment by hand of a downline's wallet, from the owner's tap to its entry (id: the entry's ref):
 * asking -> confirming -> posting -> done | refused, or cancelled before posting. Its ref is made with the question, so a double tap
 * on Confirm, or a Confirm again after a stop, posts one entry.
 */
export const AdjustKind: DocKind<Adjustment> = { name: "wallet_adjust", schema: AdjustSchema };

/** Why an invitation cannot be taken: it says so, and nothing changes. */
export type DownlineJoinRefusal = "unknown" | "expired" | "used" | "self" | "owner" | "taken" | "already" | "full" | "gone";
/** Why a downline may not invite: the owner has not allowed it, or its downlines would be too deep. */
export type InviteRefusal = "full" | "not-allowed" | "too-deep";

export interface DownlineJoiner {
  chat: number;
  name: string;
  /** Has a key of its own, or is someone's staff or downline already (`already` when of this owner). */
  ownsKey: boolean;
  memberOf?: number | undefined;
}

export function memberId(owner: number, chat: number): string {
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

  /** An invitation by the owner, or (`by`) by one of its downlines the owner allows to, above the deepest level. */
  async invite(owner: number, level: number, by?: number): Promise<{ token: string; expiresAt: number } | InviteRefusal> {
    if (by !== undefined && by !== owner) {
      const inviter = await this.member(owner, by);
      if (!inviter?.mayInvite || inviter.suspended) return "not-allowed";
      if ((await this.depthOf(by)) >= MAX_DEPTH) return "too-deep";
      level = inviter.level;
    }
    if ((await this.members(owner)).length >= DOWNLINES_MAX) return "full";
    const token = newToken();
    const expiresAt = this.now() + INVITE_TTL_MS;
    const upline = by !== undefined && by !== owner ? { upline: by } : {};
    await this.store.createDoc(DownlineInviteKind, { id: tokenHash(token), owner, state: "open", value: { level, expiresAt, ...upline } });
    await this.store.flush();
    return { token, expiresAt };
  }

  /** Takes an invitation (compare-and-set: of two taps one wins); the joiner's record then names its owner and level. */
  async join(token: string, joiner: DownlineJoiner): Promise<{ owner: number; level: number; upline: number } | DownlineJoinRefusal> {
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
    const upline = doc.value.upline ?? owner;
    // The inviter left, was suspended or lost its right to invite since: the link is void.
    const inviter = upline === owner ? undefined : await this.member(owner, upline);
    if (upline !== owner && (!inviter?.mayInvite || inviter.suspended)) return "gone";
    const taken = await this.store.updateDoc(DownlineInviteKind, doc.id, { states: ["open"] }, { state: "used", value: { ...doc.value, usedBy: joiner.chat } });
    if (!taken) return "used";
    const joinedAt = this.now();
    const level = doc.value.level;
    await this.store.updateChat(joiner.chat, { downlineOf: { owner, upline, level, since: joinedAt } });
    const member: Downline = { chat: joiner.chat, name: joiner.name, level, joinedAt, ...(upline !== owner ? { upline } : {}) };
    const id = memberId(owner, joiner.chat);
    const earlier = await this.store.getDoc(DownlineKind, id);
    if (earlier) await this.store.updateDoc(DownlineKind, id, { version: earlier.version }, { state: "active", value: member });
    else await this.store.createDoc(DownlineKind, { id, owner, state: "active", value: member });
    await this.store.flush();
    return { owner, level, upline };
  }

  /** The owner's downlines now, oldest first. */
  async members(owner: number): Promise<Downline[]> {
    return (await this.store.listDocs(DownlineKind, { owner, states: ["active"] })).map((d) => d.value);
  }

  /** Every downline the owner has had, removed ones too (their sales stay in the owner's reports, by name). */
  async everyMember(owner: number): Promise<{ chat: number; member: Downline; active: boolean }[]> {
    return (await this.store.listDocs(DownlineKind, { owner, states: ["active", "removed"] })).map((d) => ({ chat: d.value.chat, member: d.value, active: d.state === "active" }));
  }

  async member(owner: number, chat: number): Promise<Downline | undefined> {
    const doc = await this.store.getDoc(DownlineKind, memberId(owner, chat));
    return doc?.state === "active" ? doc.value : undefined;
  }

  /** A new level or suspension: on the member's list and on its own record (which every update reads). */
  async change(owner: number, chat: number, change: { level?: number; suspended?: boolean; mayInvite?: boolean }): Promise<Downline | undefined> {
    const id = memberId(owner, chat);
    const doc = await this.store.getDoc(DownlineKind, id);
    if (doc?.state !== "active") return undefined;
    const value: Downline = { ...doc.value, ...change };
    const record = await this.store.getChat(chat);
    if (record?.downlineOf?.owner === owner) {
      await this.store.updateChat(chat, { downlineOf: { ...record.downlineOf, level: value.level, suspended: value.suspended, mayInvite: value.mayInvite } });
    }
    await this.store.updateDoc(DownlineKind, id, { version: doc.version }, { value });
    await this.store.flush();
    return value;
  }

  /** Ends a membership; only with an empty wallet (nothing held, nothing owed) and no downlines of its own. */
  async remove(owner: number, chat: number): Promise<"removed" | "not-empty" | "has-downlines" | "unknown"> {
    const id = memberId(owner, chat);
    const doc = await this.store.getDoc(DownlineKind, id);
    if (doc?.state !== "active") return "unknown";
    if ((await this.members(owner)).some((m) => m.upline === chat)) return "has-downlines";
    const w = await this.store.wallet(chat);
    if (w.balance !== 0 || w.held !== 0) return "not-empty";
    const record = await this.store.getChat(chat);
    if (record?.downlineOf?.owner === owner) await this.store.updateChat(chat, { downlineOf: undefined });
    await this.store.updateDoc(DownlineKind, id, { version: doc.version }, { state: "removed" });
    await this.store.flush();
    return "removed";
  }

  /** The chain above `chat` as its record says now (a level or markup change counts from the next purchase). */
  async chain(chat: number): Promise<Chain | undefined> {
    let of = (await this.store.getChat(chat))?.downlineOf;
    if (!of) return undefined;
    const owner = of.owner;
    const uplines: { chat: number; markup: PricingRules }[] = [];
    // At most MAX_DEPTH links; a broken link (an upline removed) prices from the top found.
    while (of && of.upline !== owner && uplines.length < MAX_DEPTH) {
      uplines.unshift({ chat: of.upline, markup: await this.markup(of.upline) });
      const above: ChatRecord["downlineOf"] = (await this.store.getChat(of.upline))?.downlineOf;
      if (above?.owner !== owner) break;
      of = above;
    }
    const levels = await this.levels(owner);
    return { owner, level: levels[of?.level ?? 0] ?? levels[0]!, uplines };
  }

  /** 1 for a downline the owner invited, 2 below it, ... */
  async depthOf(chat: number): Promise<number> {
    return ((await this.chain(chat))?.uplines.length ?? 0) + 1;
  }

  /** A downline's markup for its own downlines. */
  async markup(chat: number): Promise<PricingRules> {
    return (await this.store.getDoc(DownlineMarkupKind, String(chat)))?.value.rules ?? DEFAULT_DOWNLINE_MARKUP;
  }

  /** Sets it; counts from its downlines' next purchase (the price is fixed on each draft). */
  async setMarkup(owner: number, chat: number, rules: PricingRules): Promise<void> {
    const id = String(chat);
    const doc = await this.store.getDoc(DownlineMarkupKind, id);
    if (doc) await this.store.updateDoc(DownlineMarkupKind, id, { version: doc.version }, { value: { rules } });
    else await this.store.createDoc(DownlineMarkupKind, { id, owner, state: "active", value: { rules } });
    await this.store.flush();
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

  /** The answer could not be taken: the answer to the new question `promptId` counts instead. */
  async askAgain(ref: string, value: Adjustment, promptId: number): Promise<void> {
    await this.store.updateDoc(AdjustKind, ref, { states: ["asking"] }, { value: { ...value, promptId } });
  }

  /** Nothing asked can be done (an empty wallet) or the owner cancels: asking or confirming -> cancelled; undefined when it had moved on. */
  async cancelAdjustment(owner: number, ref: string): Promise<Adjustment | undefined> {
    const doc = await this.store.getDoc(AdjustKind, ref);
    if (!doc || doc.owner !== owner) return undefined;
    return (await this.store.updateDoc(AdjustKind, ref, { states: ["asking", "confirming"] }, { state: "cancelled" }))?.value;
  }
}

/** The price rules of a level, for code that quotes a product the way /markup does. */
export function rulesOf(level: Level): PricingRules {
  return level.rules;
}
