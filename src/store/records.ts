/**
 * The records the store keeps, declared once: the zod schemas check files on load and records on
 * write, and the TypeScript types are inferred from them. Optional wherever a file written by an
 * older version could lack a field; a file that does not fit is refused (see schema.ts).
 */
import * as z from "../tools/zod.js";

/** A language tag: the name of a locales/ file (which ones the bot speaks is known only at start). */
export const LangSchema = z.string().check(z.regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i));
export type Lang = z.infer<typeof LangSchema>;

/**
 * draft: confirm screen shown, reference id made and saved; nothing sent yet.
 * sending: the create call was (about to be) sent; persisted *before* the call.
 * unknown: the create call's outcome is not known (timeout, outage); never re-sent automatically.
 * pending/processing: accepted by the provider, not final. The rest are final.
 */
export const TX_STATUSES = ["draft", "sending", "unknown", "pending", "processing", "success", "failed", "expired", "cancel"] as const;
export const TxStatusSchema = z.enum(TX_STATUSES);
export type TxStatus = z.infer<typeof TxStatusSchema>;

export const TX_KINDS = ["prepaid", "postpaid", "transfer", "deposit"] as const;
export const TxKindSchema = z.enum(TX_KINDS);
export type TxKind = z.infer<typeof TxKindSchema>;

/** Statuses the status watcher keeps polling. */
export const OPEN_STATUSES: ReadonlySet<TxStatus> = new Set<TxStatus>(["sending", "unknown", "pending", "processing"]);
/** No further change is expected: the record may leave the hot set once old (see archive.ts). */
export const FINAL_STATUSES: ReadonlySet<TxStatus> = new Set(TX_STATUSES.filter((s) => !OPEN_STATUSES.has(s) && s !== "draft"));
/** A deposit is paid once its status endpoint says one of these (a callback alone is never believed). */
export const PAID_DEPOSIT: ReadonlySet<string> = new Set(["processing", "success"]);

const time = z.number();
const optText = z.optional(z.string());
const optNumber = z.optional(z.number());

/** phone: phone and e-money numbers; number: PLN meter or bill customer number; account: bank or e-wallet account; id: game and other ids. */
export const CUSTOMER_KINDS = ["phone", "number", "account", "id"] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

/** A target the reseller saved under a name (/pelanggan). */
export const SavedCustomerSchema = z.object({
  /** Short and unique within the chat: buttons carry it. */
  id: z.string(),
  name: z.string(),
  kind: z.enum(CUSTOMER_KINDS),
  target: z.string(),
  /** Product, service or bank code of the sale it was saved from (an account needs its bank). */
  code: optText,
  /** Product, service or bank name, for display. */
  title: optText,
  /** What kind of sale it was saved from. */
  source: z.optional(z.enum(["prepaid", "postpaid", "transfer", "deposit"])),
  createdAt: time,
});
export type SavedCustomer = z.infer<typeof SavedCustomerSchema>;

/** A markup on the cost: flat rupiah per sale, or a percent of the cost (up to two decimals). */
export const MarkupSchema = z.union([z.object({ flat: z.int().check(z.nonnegative()) }), z.object({ percent: z.number().check(z.nonnegative()) })]);
export type Markup = z.infer<typeof MarkupSchema>;

/** A chat's selling-price rules; keys of `categories` are category keys (catalog groupKey), of `products` product codes. */
export const PricingRulesSchema = z.object({
  all: z.optional(MarkupSchema),
  categories: z.optional(z.record(z.string(), MarkupSchema)),
  products: z.optional(z.record(z.string(), MarkupSchema)),
  /** Selling prices fixed outright (/hargajual), by product code. */
  fixed: z.optional(z.record(z.string(), z.int().check(z.positive()))),
  /** The reseller's own admin fee added to a bill's total. */
  billFee: z.optional(z.int().check(z.nonnegative())),
});
export type PricingRules = z.infer<typeof PricingRulesSchema>;

export const STAFF_ROLES = ["cashier", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** `ownerName`: the owner's first name when it invited (the staff chat is told whose shop it works in). */
export const StaffOfSchema = z.object({ owner: z.int(), role: z.enum(STAFF_ROLES), since: time, ownerName: optText });
export const CustomerOfSchema = z.object({ owner: z.int(), code: z.string() });
/** A downline of an owner's network (docs/wallets.md): buys with the owner's key from its wallet at its level's price. */
export const DownlineOfSchema = z.object({
  owner: z.int(),
  /** Its upline: the owner, or the downline that invited it. */
  upline: z.int(),
  /** Index of the owner's level (0: the first). */
  level: z.int().check(z.nonnegative()),
  since: time,
  /** Sells nothing while set; its wallet is kept. */
  suspended: z.optional(z.boolean()),
  /** The owner allows it to invite downlines of its own (at most 3 levels below the owner). */
  mayInvite: z.optional(z.boolean()),
});

export const ChatRecordSchema = z.object({
  chatId: z.int(),
  lang: z.optional(LangSchema),
  /** AES-256-GCM ciphertext of the reseller's api key; the raw key never reaches the disk. */
  apiKeyEnc: optText,
  /** First 4 and last 4 characters, for display. */
  keyMask: optText,
  /** Keyed digest of the api key (crypto.ts keyDigest): finds another chat holding the same key. Absent on keys linked before it existed. */
  keyDigest: optText,
  linkedAt: optNumber,
  /** Low-balance alert threshold in rupiah; undefined = alerts off. */
  alertThreshold: optNumber,
  /** True once the current dip below the threshold was announced; re-armed when balance rises above. */
  alertFired: z.optional(z.boolean()),
  /** The next plain text in this private chat is a (new) api key (/start unlinked, /kunci). */
  awaitingKey: z.optional(z.boolean()),
  /** Its stored key was removed as unreadable after the store secret changed; not yet told to link again. */
  keyLost: z.optional(z.boolean()),
  /** The chat blocked the bot (403): skip it for broadcasts and watching. */
  inactive: z.optional(z.boolean()),
  /**
   * Notices it missed while it had blocked the bot are still to send: set with each one, dropped once all
   * went out. Any update from the chat sends them, so a return that reached no watcher is taken up later.
   */
  owedNotices: z.optional(z.boolean()),
  /** The provider account's `username` (get_profile): its md5 signs the provider's callbacks. */
  providerUsername: optText,
  /** Random secret in this chat's callback URL (PUBLIC_URL/provider/<token>); a new one retires the old URL. */
  callbackToken: optText,
  /** When the last valid provider callback for this chat arrived (set = callbacks work). */
  callbacksLastAt: optNumber,
  createdAt: time,
  updatedAt: time,
  /** The reseller's shop name and footer line (address, WhatsApp) on customer receipts (/toko). */
  shopName: optText,
  shopFooter: optText,
  /** Opted in to the 21.00 WIB daily summary (/laporan); `summaryDay`: the WIB day it was last sent (marked before sending). */
  dailySummary: z.optional(z.boolean()),
  summaryDay: optText,
  /** Saved customers (/pelanggan), oldest first; at most CUSTOMERS_MAX (bot/savedCustomers.ts). */
  customers: z.optional(z.array(SavedCustomerSchema)),
  /** The reseller's selling-price rules (/markup, /hargajual; domain/pricing.ts). */
  pricing: z.optional(PricingRulesSchema),
  /** This chat works for another reseller (/staf): whose key and balance, in which role. Never set with a key of its own. */
  staffOf: z.optional(StaffOfSchema),
  /** This chat is a customer of a reseller's online shop: the shop it opened last (its link's code). */
  customerOf: z.optional(CustomerOfSchema),
  downlineOf: z.optional(DownlineOfSchema),
});
export type ChatRecord = z.infer<typeof ChatRecordSchema>;

export const WatchStateSchema = z.object({
  /** Epoch ms of the next status check. */
  nextCheckAt: time,
  attempts: z.number(),
  /** The last status the chat was told about: a transition is announced once. */
  notified: z.optional(TxStatusSchema),
  /** Set when the maximum age passed and the chat was told to check by hand. */
  gaveUp: z.optional(z.boolean()),
  /** The watcher's crash-safe marker of a notice being sent (jobs/watcher/notify.ts NoticeKind). */
  announcing: optText,
  /** Counts "announcing" marks: a watcher claims the mark only if it is unchanged since it read it. */
  claim: z.optional(z.number()),
  /** A notice the chat could not get because it had blocked the bot; sent when the chat comes back. */
  owed: optText,
  /**
   * A wallet's unknown purchase the provider answers "not found" for (docs/wallets.md, "not at the
   * provider"): the counted answers, the first and last counted, and `found` once any answer found it.
   */
  absent: z.optional(z.object({ answers: z.number(), firstAt: time, lastAt: time, found: z.optional(z.boolean()) })),
});
export type WatchState = z.infer<typeof WatchStateSchema>;

// Details drop keys they do not declare: every key any version wrote is declared below.

/**
 * Every kind: the "checking with the provider" line shown while its create was slow (bot/slowAnswer.ts).
 * A crash leaves it in the chat; the watcher deletes it when it learns the outcome.
 */
const progressLine = { progressId: optNumber };

export const PrepaidDetailSchema = z.object({
  ...progressLine,
  category: optText,
  provider: optText,
  /** The confirmed price, kept when the provider charged a different one. */
  quotedPrice: optNumber,
  /** When the price list the price came from was fetched, when the provider was too slow to ask again. */
  listAt: optNumber,
});

export const BillPeriodSchema = z.object({
  period: z.string(),
  amount: z.nullable(z.number()),
  admin: z.nullable(z.number()),
  penalty: z.nullable(z.number()),
});

export const PostpaidDetailSchema = z.object({
  ...progressLine,
  customerName: optText,
  periods: z.optional(z.array(BillPeriodSchema)),
  adminFee: optNumber,
  /** `harga`: what the provider debits from the reseller's balance. */
  cost: optNumber,
  tariff: optText,
  power: optNumber,
  participants: optText,
  sheets: optNumber,
});

export const TransferDetailSchema = z.object({
  ...progressLine,
  holderName: optText,
  bankType: z.optional(z.enum(["bank", "ewallet"])),
  /** "" when the user skipped the note. */
  note: optText,
  /** The fee of an earlier transfer to the same kind of destination, shown as an estimate. */
  feeEstimate: optNumber,
  /** The most a transfer to this kind of destination costs, shown when there is no estimate. */
  feeBound: optNumber,
  /** Drafts saved before feeBound: the highest fee of the chat's earlier transfers. */
  feeHighest: optNumber,
  /** A downline's payout (docs/wallets.md): the downline's name, shown on the owner's confirm screen. */
  payoutName: optText,
  /** A downline's payout: the outcome its downline was told of (success, failed), so it is told once. */
  payoutTold: optText,
  /** A downline's payout: the owner's request message was delivered (else the leader's sweep sends it again). */
  payoutOffered: z.optional(z.boolean()),
});

/** draft: type..estimatedCredited; created: expiresAt..url, photo; instant release: instant, handlingFee. */
export const DepositDetailSchema = z.object({
  ...progressLine,
  type: optText,
  method: optText,
  methodFee: optNumber,
  methodFeePercent: optNumber,
  requested: optNumber,
  estimatedFee: optNumber,
  estimatedCredited: optNumber,
  /** Epoch ms; null when the provider gave none. */
  expiresAt: z.optional(z.nullable(z.number())),
  extra: optNumber,
  credited: optNumber,
  qrString: optText,
  bank: optText,
  accountNumber: optText,
  accountHolder: optText,
  vaNumber: optText,
  url: optText,
  /** The instructions were sent as a photo (QRIS): edits go to the caption. */
  photo: z.optional(z.boolean()),
  /** "due" from the create until the payment instructions were sent: a restart sends them then. */
  instructions: z.optional(z.literal("due")),
  instant: z.optional(z.enum(["sending", "done", "unknown"])),
  /** Epoch ms a cancel was claimed, saved before its provider call and removed after its answer. */
  cancelling: optNumber,
  handlingFee: optNumber,
  /** Other messages (status checks) that offered the instant release: updated after a release. */
  offers: z.optional(z.array(z.int())),
});

/** Where a wallet part stands (docs/wallets.md): a draft holds nothing; held counts against the wallet. */
export const WALLET_STATES = ["draft", "held", "posted", "released"] as const;
export type WalletState = (typeof WALLET_STATES)[number];

/**
 * A record paid from (or credited to) a downline's wallet: the price it holds while in flight, the
 * commissions its success earns the uplines, the credit a paid deposit brings.
 */
export const WalletPartSchema = z.object({
  /** The downline's chat whose wallet pays or is credited. */
  chat: z.int(),
  /** What the record holds while `held`, and what success debits (0 for a deposit). */
  price: z.int().check(z.nonnegative()),
  state: z.enum(WALLET_STATES),
  /** Uplines that are downlines themselves: what each earns when the purchase succeeds. */
  commissions: z.optional(z.array(z.object({ chat: z.int(), amount: z.int().check(z.nonnegative()) }))),
  /** A deposit: what the wallet is credited once the deposit is paid. */
  credit: z.optional(z.int().check(z.nonnegative())),
  /** The buyer's level when its price was fixed: the report counts the sale there after a level change. */
  level: z.optional(z.int().check(z.nonnegative())),
  /** The downline's own selling price to its customer (its /markup, /hargajual): its receipts' price, never what it pays. */
  resale: z.optional(z.int().check(z.nonnegative())),
});
export type WalletPart = z.infer<typeof WalletPartSchema>;

export const WALLET_ENTRY_KINDS = ["deposit", "adjust", "purchase", "commission", "refund", "payout"] as const;
export type WalletEntryKind = (typeof WALLET_ENTRY_KINDS)[number];

/** One movement of a wallet: appended once, never edited (docs/wallets.md). */
export const WalletEntrySchema = z.object({
  /** Unique: a second post of the same ref posts nothing. */
  ref: z.string().check(z.minLength(1), z.maxLength(100)),
  /** The downline's chat whose wallet it moves. */
  wallet: z.int(),
  /** The network's owner. */
  owner: z.int(),
  /** Rupiah: + credit, - debit; never 0. */
  amount: z.int(),
  kind: z.enum(WALLET_ENTRY_KINDS),
  /** The record it comes from (a purchase, a deposit, a payout). */
  txRef: optText,
  /** Why, for an adjustment by hand. */
  reason: optText,
  /** Who made it by hand (the owner's chat). */
  by: z.optional(z.int()),
  /** Increasing per wallet, from 1: the page order of `/mutasi`. */
  seq: z.int(),
  /** The wallet's balance after this entry (the running balance `/mutasi` shows). */
  balance: z.int(),
  at: time,
});
export type WalletEntry = z.infer<typeof WalletEntrySchema>;

const txBase = {
  /** Our reference id (`reff_id`, or `ref_id` for transfers): made before the create call. Unique. */
  refId: z.string().check(z.minLength(1)),
  chatId: z.int(),
  status: TxStatusSchema,
  /** The provider's id, known once the create call answered. Status lookups use it. */
  upstreamId: optText,
  /** Product or service code (prepaid/postpaid), bank code (transfer), method (deposit). */
  code: optText,
  /** Product name, bank name or method name, for display. */
  title: optText,
  /** Phone/meter/customer number, account number. */
  target: optText,
  /** Price (prepaid), bill total (postpaid), nominal (transfer, deposit). */
  amount: z.number(),
  fee: optNumber,
  total: optNumber,
  sn: z.optional(z.nullable(z.string())),
  /** Provider's message on failure, or other short text for the receipt. */
  message: optText,
  /** The Telegram message that shows this transaction, to edit it on a change. */
  messageId: optNumber,
  /** A failed record: the reference id of the one new draft "Try again" made from it. */
  retriedAs: optText,
  /**
   * The reseller's own selling price and profit (prepaid and bills), fixed at confirm time so a
   * later markup change does not rewrite history. Absent: no markup applied (sold at cost).
   */
  sale: z.optional(z.object({ price: z.number(), profit: z.number() })),
  /** The staff member's chat that made it with the owner's key (`chatId` is the owner's); absent: the owner. */
  by: z.optional(z.int()),
  /** Paid from a downline's wallet (docs/wallets.md). */
  wallet: z.optional(WalletPartSchema),
  /** An H2H sale (docs/h2h.md): the downline system's own reff_id, answered back as `reff_id`. */
  clientRef: optText,
  createdAt: time,
  updatedAt: time,
  watch: z.optional(WatchStateSchema),
};

export const TxRecordSchema = z.discriminatedUnion("kind", [
  z.object({ ...txBase, kind: z.literal("prepaid"), detail: z.optional(PrepaidDetailSchema) }),
  z.object({ ...txBase, kind: z.literal("postpaid"), detail: z.optional(PostpaidDetailSchema) }),
  z.object({ ...txBase, kind: z.literal("transfer"), detail: z.optional(TransferDetailSchema) }),
  z.object({ ...txBase, kind: z.literal("deposit"), detail: z.optional(DepositDetailSchema) }),
]);
export type TxRecord = z.infer<typeof TxRecordSchema>;

/** The record of one kind, and what it keeps in `detail`. */
export type TxOf<K extends TxKind> = Extract<TxRecord, { kind: K }>;
export type DetailOf<K extends TxKind> = NonNullable<TxOf<K>["detail"]>;
/** Any kind's detail (what a patch may carry). */
export type TxDetail = DetailOf<TxKind>;
export type PrepaidDetail = DetailOf<"prepaid">;
export type PostpaidDetail = DetailOf<"postpaid">;
export type TransferDetail = DetailOf<"transfer">;
export type DepositDetail = DetailOf<"deposit">;

/** The detail of `tx` if it is of `kind`, else empty: typed reads without casts at the call sites. */
export function detailOf<K extends TxKind>(tx: TxRecord, kind: K): DetailOf<K> {
  // The one place the generic cannot be narrowed by the compiler; the check is the kind itself.
  return (tx.kind === kind ? (tx.detail ?? {}) : {}) as DetailOf<K>;
}

/** "txs[3]: status: Invalid option..." from a zod error, for StoreCorruptError and TypeError messages. */
export function describeIssues(error: { issues: readonly z.core.$ZodIssue[] }, prefix = ""): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path.map((p, n) => (typeof p === "number" ? `[${p}]` : `${n === 0 ? "" : "."}${String(p)}`)).join("");
      const at = prefix + path;
      return at ? `${at}: ${i.message}` : i.message;
    })
    .join("; ");
}
