/**
 * An owner's staff: one-time invitations (24 h, single use, kept by the hash of their token), the
 * memberships (who, which role, since when, last seen) and the owner's choices for them. Whose staff a
 * chat is lives on that chat's own record (`staffOf`), which every update reads: clearing it there ends
 * the membership at the next tap on any process. The documents here are the owner's list of it.
 */
import { createHash, randomBytes } from "node:crypto";
import type { DocKind, Store, StaffRole, TxRecord } from "../store/index.js";
import * as z from "../tools/zod.js";

/** How long an invitation link may be opened. */
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;
/** Most staff one owner may have (members plus open invitations). */
export const STAFF_MAX = 20;
/** Last activity is written at most this often per member (an update reads no document for it). */
export const ACTIVITY_EVERY_MS = 5 * 60 * 1000;
/** The `/start` payload of an invitation link: `staff_<token>`. */
export const INVITE_PREFIX = "staff_";

const roleSchema = z.enum(["cashier", "admin"]);

const InvitationSchema = z.object({ role: roleSchema, expiresAt: z.number(), usedBy: z.optional(z.int()), ownerName: z.optional(z.string().check(z.maxLength(64))) });
export type Invitation = z.infer<typeof InvitationSchema>;
/** open -> used (joined) | revoked. Expiry is read from `expiresAt`. */
export const InvitationKind: DocKind<Invitation> = { name: "staff_invite", schema: InvitationSchema };

const MemberSchema = z.object({
  chat: z.int(),
  name: z.string(),
  role: roleSchema,
  joinedAt: z.number(),
  lastActiveAt: z.optional(z.number()),
});
export type Member = z.infer<typeof MemberSchema>;
/** active | removed; id `<owner>:<chat>` (one chat may work for one owner at a time). */
export const MemberKind: DocKind<Member> = { name: "staff_member", schema: MemberSchema };

const ChoicesSchema = z.object({ ownerNotices: z.boolean(), cashierSeesCost: z.boolean() });
export type StaffChoices = z.infer<typeof ChoicesSchema>;
/** The owner's choices in /staf; id: the owner's chat id. */
export const ChoicesKind: DocKind<StaffChoices> = { name: "staff_choices", schema: ChoicesSchema };
export const DEFAULT_CHOICES: StaffChoices = { ownerNotices: false, cashierSeesCost: false };

/** The token's hash is the invitation's id: a leaked store does not hand out working links. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newToken(): string {
  return randomBytes(18).toString("base64url");
}

function memberId(owner: number, chat: number): string {
  return `${owner}:${chat}`;
}

/** Why an invitation cannot be taken: it says so, and nothing changes. */
export type JoinRefusal = "unknown" | "expired" | "used" | "self" | "owner" | "staff-elsewhere" | "already" | "full";

/** Who opens an invitation link, from their chat record. */
export interface Joiner {
  chat: number;
  name: string;
  /** The chat has an api key of its own: an owner is never someone else's staff. */
  ownsKey: boolean;
  /** The owner it already works for, if any. */
  staffOf?: number | undefined;
}

/** The owner's choices about its staff (the defaults until it made one): for readers outside an update, as the watcher's notices. */
export async function staffChoicesOf(store: Store, owner: number): Promise<StaffChoices> {
  return (await store.getDoc(ChoicesKind, String(owner)))?.value ?? DEFAULT_CHOICES;
}

export class Staff {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /**
   * A new invitation link's token for `role`, or "full" when the owner has STAFF_MAX already. `ownerName`
   * (the owner's first name) goes with it to whoever joins.
   */
  async invite(owner: number, role: StaffRole, ownerName?: string): Promise<{ token: string; expiresAt: number } | "full"> {
    if ((await this.members(owner)).length + (await this.openInvitations(owner)).length >= STAFF_MAX) return "full";
    const token = newToken();
    const expiresAt = this.now() + INVITE_TTL_MS;
    await this.store.createDoc(InvitationKind, { id: tokenHash(token), owner, state: "open", value: { role, expiresAt, ...(ownerName ? { ownerName: ownerName.slice(0, 64) } : {}) } });
    await this.store.flush();
    return { token, expiresAt };
  }

  private async openInvitations(owner: number): Promise<Invitation[]> {
    const docs = await this.store.listDocs(InvitationKind, { owner, states: ["open"] });
    return docs.map((d) => d.value).filter((v) => v.expiresAt > this.now());
  }

  /**
   * Takes an invitation: the invitation is marked used (compare-and-set: of two taps one wins), then the
   * joiner's record names its owner and role and the owner's list gains it.
   */
  async join(token: string, joiner: Joiner): Promise<{ owner: number; role: StaffRole; ownerName?: string | undefined } | JoinRefusal> {
    const doc = await this.store.getDoc(InvitationKind, tokenHash(token));
    if (!doc) return "unknown";
    if (doc.state !== "open") return "used";
    if (doc.value.expiresAt <= this.now()) return "expired";
    const owner = doc.owner;
    if (joiner.chat === owner) return "self";
    if (joiner.staffOf === owner) return "already";
    if (joiner.staffOf !== undefined) return "staff-elsewhere";
    if (joiner.ownsKey) return "owner";
    if ((await this.members(owner)).length >= STAFF_MAX) return "full";
    const role = doc.value.role;
    const taken = await this.store.updateDoc(InvitationKind, doc.id, { states: ["open"] }, { state: "used", value: { ...doc.value, usedBy: joiner.chat } });
    if (!taken) return "used";
    const joinedAt = this.now();
    const ownerName = doc.value.ownerName;
    await this.store.updateChat(joiner.chat, { staffOf: { owner, role, since: joinedAt, ...(ownerName ? { ownerName } : {}) } });
    const member: Member = { chat: joiner.chat, name: joiner.name, role, joinedAt };
    const id = memberId(owner, joiner.chat);
    const earlier = await this.store.getDoc(MemberKind, id);
    if (earlier) await this.store.updateDoc(MemberKind, id, { version: earlier.version }, { state: "active", value: member });
    else await this.store.createDoc(MemberKind, { id, owner, state: "active", value: member });
    await this.store.flush();
    return { owner, role, ownerName };
  }

  /** The owner's staff now, oldest first. */
  async members(owner: number): Promise<Member[]> {
    return (await this.store.listDocs(MemberKind, { owner, states: ["active"] })).map((d) => d.value);
  }

  /** Every chat that ever worked for the owner, by name (reports and exports name past staff too). */
  async names(owner: number): Promise<Map<number, string>> {
    return new Map((await this.store.listDocs(MemberKind, { owner })).map((d) => [d.value.chat, d.value.name]));
  }

  async member(owner: number, chat: number): Promise<Member | undefined> {
    const doc = await this.store.getDoc(MemberKind, memberId(owner, chat));
    return doc?.state === "active" ? doc.value : undefined;
  }

  /** A new role from the next tap; the role before, or undefined when `chat` is not the owner's staff. */
  async changeRole(owner: number, chat: number, role: StaffRole): Promise<StaffRole | undefined> {
    const doc = await this.store.getDoc(MemberKind, memberId(owner, chat));
    const record = await this.store.getChat(chat);
    if (doc?.state !== "active" || record?.staffOf?.owner !== owner) return undefined;
    const before = record.staffOf.role;
    await this.store.updateChat(chat, { staffOf: { ...record.staffOf, role } });
    await this.store.updateDoc(MemberKind, doc.id, { states: ["active"] }, { value: { ...doc.value, role } });
    await this.store.flush();
    return before;
  }

  /**
   * Ends a membership at once (removed by the owner, or left): the chat's record no longer names the
   * owner, and its running flow ends (it was started with the owner's key). The member as it was, or
   * undefined when it was not the owner's staff.
   */
  async end(owner: number, chat: number): Promise<Member | undefined> {
    const record = await this.store.getChat(chat);
    const doc = await this.store.getDoc(MemberKind, memberId(owner, chat));
    const wasStaff = record?.staffOf?.owner === owner;
    if (wasStaff) await this.store.updateChat(chat, { staffOf: undefined });
    if (doc?.state === "active") await this.store.updateDoc(MemberKind, doc.id, { states: ["active"] }, { state: "removed" });
    if (wasStaff) {
      const flow = await this.store.getFlow(chat);
      if (flow.state !== undefined) await this.store.setFlow(chat, undefined, flow.version);
    }
    await this.store.flush();
    return wasStaff && doc ? doc.value : undefined;
  }

  /** Notes the member's activity, at most every ACTIVITY_EVERY_MS. */
  async touch(owner: number, chat: number): Promise<void> {
    const doc = await this.store.getDoc(MemberKind, memberId(owner, chat));
    if (doc?.state !== "active") return;
    const now = this.now();
    if (doc.value.lastActiveAt !== undefined && now - doc.value.lastActiveAt < ACTIVITY_EVERY_MS) return;
    await this.store.updateDoc(MemberKind, doc.id, { version: doc.version }, { value: { ...doc.value, lastActiveAt: now } });
  }

  async choices(owner: number): Promise<StaffChoices> {
    return staffChoicesOf(this.store, owner);
  }

  /** Changes one choice; returns the choices before and after. */
  async choose(owner: number, patch: Partial<StaffChoices>): Promise<{ before: StaffChoices; after: StaffChoices }> {
    const id = String(owner);
    for (;;) {
      const doc = await this.store.getDoc(ChoicesKind, id);
      const before = doc?.value ?? DEFAULT_CHOICES;
      const after = { ...before, ...patch };
      if (!doc) {
        const made = await this.store.createDoc(ChoicesKind, { id, owner, state: "active", value: after }).catch(() => undefined);
        if (made) return { before, after };
        continue; // made meanwhile elsewhere: change that one
      }
      if (await this.store.updateDoc(ChoicesKind, id, { version: doc.version }, { value: after })) return { before, after };
    }
  }
}

/**
 * A downline's purchase as the downline reads it: its own selling price (else what its wallet pays) as
 * the price, nothing of the owner's cost or of what its uplines pay (docs/wallets.md).
 */
export function downlineView(tx: TxRecord): TxRecord {
  const w = tx.wallet;
  if (!w || tx.kind === "deposit" || tx.kind === "transfer") return withoutCost(tx);
  return withoutCost({ ...tx, sale: { price: w.resale ?? w.price, profit: 0 } } as TxRecord);
}

/**
 * A downline's QRIS deposit once its wallet is credited: done, as the downline reads it. The provider's
 * settlement (H+1) is the owner's and tells the downline nothing, so "still processing" would wait forever.
 */
export function creditedToWallet(tx: Pick<TxRecord, "kind" | "status" | "wallet">): boolean {
  return tx.kind === "deposit" && tx.wallet?.state === "posted" && tx.status === "processing";
}

/**
 * A sale as a cashier the owner shows no cost to reads it (receipts, notices, history): the selling
 * price as its amount, no cost and no profit. Anything that is not a sale is shown as it is.
 */
export function withoutCost(tx: TxRecord): TxRecord {
  if (tx.kind !== "prepaid" && tx.kind !== "postpaid") return tx;
  const { sale, ...rest } = tx;
  const amount = sale?.price ?? tx.amount;
  if (rest.kind === "prepaid") return { ...rest, amount };
  const { cost: _cost, ...detail } = rest.detail ?? {};
  return { ...rest, amount, detail };
}
