/**
 * The chat's record, read once per update and put on the context (`ctx.chatRecord`) for everything
 * after it: the language, presence, the key guards. Conversations build a context of their own for
 * each update they replay: the update in flight gets the very same record (a change made through
 * either context is seen by both); an older update replayed gets a fresh read, as nothing of this
 * update's record may be assumed about it.
 *
 * A store that cannot be reached leaves the record unknown, not absent: the update goes on (help, the
 * menu and the language picker need no record), and whatever reads `ctx.chatRecord` gets the store's
 * error, which storeUnavailable.ts answers; nothing takes an unreadable chat for a new one.
 */
import { Context, type MiddlewareFn } from "grammy";
import type { ChatRecord, Store } from "../../store/index.js";
import type { BaseContext } from "../context.js";
import type { TranslateVars } from "../../render/i18n.js";
import { roleOf, type Role } from "../../domain/roles.js";

interface Slot {
  record: Readonly<ChatRecord> | undefined;
  /** Why the record could not be read (the store is unreachable); cleared by a record set later. */
  unreadable?: unknown;
  /** The decrypted key of `keyOf` (an apiKeyEnc), read at most once per update. */
  key?: Promise<string | undefined>;
  keyOf?: string;
}

/** The slot of each flow context of an update in flight (gone with the context); the bot's own context holds its slot. */
const slots = new WeakMap<object, Slot>();

function slotOf(ctx: object): Slot | undefined {
  return ctx instanceof ChatRecordContext ? ctx.slot : slots.get(ctx);
}

/**
 * The bot's context class (createBot): `ctx.chatRecord` reads and writes the update's slot through
 * an accessor of the class, instead of one defined on every update's context.
 */
export class ChatRecordContext extends Context {
  /** This update's slot (a field: no WeakMap lookup on each read of the record or the role). */
  slot: Slot | undefined = undefined;
  private resolvedRole: { of: unknown; role: Role } | undefined = undefined;
  /** grammY's `chat` and `from`, worked out once: an update is read ~20 times, each a chain of ~15 lookups. Null: not yet. */
  private chatOnce: Context["chat"] | null = null;
  private fromOnce: Context["from"] | null = null;

  override get chat(): Context["chat"] {
    if (this.chatOnce === null) this.chatOnce = super.chat;
    return this.chatOnce;
  }

  override get from(): Context["from"] {
    if (this.fromOnce === null) this.fromOnce = super.from;
    return this.fromOnce;
  }

  /** `ctx.t` (middlewares/extras.ts): translate into the chat's language, read at call time. */
  t(this: BaseContext, key: string, vars?: TranslateVars): string {
    return this.translate(this.lang, key, vars);
  }

  /** `ctx.role` (middlewares/role.ts) as a getter of the class: nothing defined on each update's context. */
  get role(): Role {
    const record = this.chatRecord; // throws while the store is unreachable, as any read of it
    if (this.resolvedRole === undefined || this.resolvedRole.of !== record) this.resolvedRole = { of: record, role: roleOf(record) };
    return this.resolvedRole.role;
  }

  get chatRecord(): Readonly<ChatRecord> | undefined {
    const slot = this.slot;
    if (slot?.unreadable !== undefined) throw slot.unreadable;
    return slot?.record;
  }

  set chatRecord(record: Readonly<ChatRecord> | undefined) {
    const slot = this.slot;
    if (slot === undefined) this.slot = { record };
    else {
      slot.record = record;
      slot.unreadable = undefined;
    }
  }
}

/** `ctx.chatRecord` reads and writes the slot, so the outer context and a flow's share it. */
function attach(ctx: BaseContext, slot: Slot): void {
  if (ctx instanceof ChatRecordContext) {
    ctx.slot = slot;
    return;
  }
  slots.set(ctx, slot);
  // A flow's context (the conversations plugin builds plain ones) gets the accessor of its own.
  Object.defineProperty(ctx, "chatRecord", {
    get: () => {
      if (slot.unreadable !== undefined) throw slot.unreadable;
      return slot.record;
    },
    set: (record: Readonly<ChatRecord> | undefined) => {
      slot.record = record;
      slot.unreadable = undefined;
    },
    configurable: true,
    enumerable: true,
  });
}

export class ChatRecords {
  /** update_id -> the record of the update in flight. */
  private readonly inFlight = new Map<number, Slot>();

  constructor(private readonly store: Pick<Store, "getChat" | "canPersist">) {}

  /** The chat's record, promptly: a store that does not answer leaves it unknown (thrown on use). */
  private async read(chatId: number): Promise<Slot> {
    try {
      return { record: await this.store.getChat(chatId, { promptly: true }) };
    } catch (err) {
      if (this.store.canPersist()) throw err;
      return { record: undefined, unreadable: err };
    }
  }

  /** Before every handler: the one read of the update. */
  readonly load: MiddlewareFn<BaseContext> = async (ctx, next) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return next();
    const slot = await this.read(chatId);
    attach(ctx, slot);
    const updateId = ctx.update.update_id;
    this.inFlight.set(updateId, slot);
    try {
      await next();
    } finally {
      if (this.inFlight.get(updateId) === slot) this.inFlight.delete(updateId);
    }
  };

  /** Inside a flow (a conversation plugin): the update in flight's record, else a fresh read. */
  readonly inFlow: MiddlewareFn<BaseContext> = async (ctx, next) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return next();
    attach(ctx, this.inFlight.get(ctx.update.update_id) ?? (await this.read(chatId)));
    return next();
  };
}

/**
 * The chat's decrypted api key (staff, downlines: their owner's), or undefined when there is none. Decrypted from the record in
 * hand (no second read of the chat), once per update however many guards ask, and kept only as long
 * as the update's contexts.
 */
export async function apiKeyOf(ctx: BaseContext): Promise<string | undefined> {
  const record = ctx.chatRecord; // an unreadable record rejects
  // Staff and downlines work with their owner's key: read from the owner's record (whose key may change meanwhile).
  const owner = ctx.role.kind === "staff" || ctx.role.kind === "downline" ? ctx.role.owner : undefined;
  if (owner === undefined && record?.apiKeyEnc === undefined) return undefined;
  const slot = slotOf(ctx);
  if (!slot) return decrypt(ctx, record, owner);
  const of = owner !== undefined ? `owner:${owner}` : record!.apiKeyEnc!;
  if (slot.key === undefined || slot.keyOf !== of) {
    slot.key = decrypt(ctx, record, owner);
    slot.keyOf = of;
  }
  return slot.key;
}

function decrypt(ctx: BaseContext, record: Readonly<ChatRecord> | undefined, owner: number | undefined): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve) => resolve(owner !== undefined ? ctx.deps.providerLink.keyOf(owner) : ctx.deps.store.apiKeyOf(record!)));
}

/** The chat's record where an unknown one (the store is unreachable) may pass as none: the language, presence. */
export function knownChatRecord(ctx: BaseContext): Readonly<ChatRecord> | undefined {
  const slot = slotOf(ctx);
  return slot ? (slot.unreadable === undefined ? slot.record : undefined) : ctx.chatRecord;
}
