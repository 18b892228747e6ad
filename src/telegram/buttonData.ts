/**
 * Every callback data shape the bot puts on an inline button, declared once: a wire pattern
 * (`"ok:{refId}"`), its typed fields, `encode` to build the data and `decode` to read it back
 * (undefined for anything a real button never carries: stale, forged or malformed data).
 *
 * Pure (no grammY context), so the watcher may build buttons too; src/bot/buttons.ts binds the
 * shapes to handlers. Each field declares its longest values, so a test can prove that every shape
 * stays within Telegram's 64 bytes. Wire formats are the ones deployed before this module, so
 * buttons already in users' chats keep working.
 */
import { SHOP_BUTTON_FAMILIES } from "./shopButtonData.js";
import { ORDER_BUTTON_FAMILY } from "./orderButtonData.js";

/** Telegram's limit for callback_data, in UTF-8 bytes. */
export const MAX_CALLBACK_BYTES = 64;

export interface Field<T> {
  /** Wire text of a value; throws for a value no button may carry (a bug, not user input). */
  encode(value: T): string;
  /** The value of wire text, or undefined. */
  decode(text: string): T | undefined;
  /** The longest values this field may carry (for the 64-byte test). */
  readonly longest: readonly T[];
  /** Takes the rest of the data, colons included (only as the last field). */
  readonly rest?: boolean;
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

function invalid(what: string, value: unknown): never {
  throw new Error(`callback data: ${JSON.stringify(value)} is not a valid ${what}`);
}

/** Text matching `pattern` (anchored), kept as is. */
function text(what: string, pattern: RegExp, longest: readonly string[]): Field<string> {
  return {
    encode: (v) => (pattern.test(v) ? v : invalid(what, v)),
    decode: (t) => (pattern.test(t) ? t : undefined),
    longest,
  };
}

/** A whole number 0..max, in decimal. */
function int(max: number): Field<number> {
  const digits = new RegExp(`^\\d{1,${String(max).length}}$`);
  return {
    encode: (v) => (Number.isSafeInteger(v) && v >= 0 && v <= max ? String(v) : invalid("number", v)),
    decode: (t) => (digits.test(t) && Number(t) <= max ? Number(t) : undefined),
    longest: [max],
  };
}

/** One of a fixed list of names; lookups go through a Set, never through an object's prototype. */
function oneOf<const T extends string>(values: readonly T[]): Field<T> {
  const known = new Set<string>(values);
  const is = (t: string): t is T => known.has(t);
  return {
    encode: (v) => (is(v) ? v : invalid("name", v)),
    decode: (t) => (is(t) ? t : undefined),
    longest: values,
  };
}

/** Free text to the end of the data (may contain colons), at most `maxBytes` UTF-8 bytes. */
function restText(maxBytes: number): Field<string> {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short text needs no byte count.
  const ok = (t: string) => t.length > 0 && (t.length * 3 <= maxBytes || bytes(t) <= maxBytes) && !/[\n\r]/.test(t);
  return {
    encode: (v) => (ok(v) ? v : invalid("text", v)),
    decode: (t) => (ok(t) ? t : undefined),
    // ASCII and 3-byte characters; colons must survive the round trip.
    longest: ["q".repeat(maxBytes), "€".repeat(Math.floor(maxBytes / 3)), `a:${"b".repeat(maxBytes - 2)}`],
    rest: true,
  };
}

// ------------------------------------------------------------------------------------------
// Field types and their limits

/** Our reference ids (src/bot/money/refs.ts makes 16 characters); a little room for older ones. */
export const REF_ID_MAX_LENGTH = 40;
/** Largest page number any paged screen may carry. */
export const PAGE_MAX = 999_999;
/** Longest search query (bytes) the price browser carries in its paging buttons. */
export const SEARCH_QUERY_MAX_BYTES = 50;
/** Category and provider keys (src/domain/groupKey.ts): a slug or `x` + hash. */
export const GROUP_KEY_MAX_LENGTH = 16;
/** Product codes carried as is (src/bot/catalog.ts productRef); longer ones become `#` + 10-char hash. */
export const PRODUCT_CODE_MAX_LENGTH = 40;
/** Most options one askChoice offers (indexes in `f:c:<index>`). */
export const CHOICE_INDEX_MAX = 9_999;
/** Saved-customer ids (src/bot/savedCustomers.ts makes 6 characters). */
export const CUSTOMER_ID_MAX_LENGTH = 8;
/** Most saved customers and recent targets a prompt offers (indexes in `f:s:<index>`). */
export const SUGGESTION_INDEX_MAX = 99;

/** The main-menu actions (`menu:<name>`); `open` shows the menu itself. */
export const MENU_NAMES = [
  "open",
  "topup",
  "prices",
  "bill",
  "transfer",
  "deposit",
  "balance",
  "history",
  "status",
  "alerts",
  "language",
  "help",
  "report",
  "customers",
  "markup",
  "shop",
  "export",
] as const;
export type MenuName = (typeof MENU_NAMES)[number];

/** A language tag (a locales/ file name); the handler checks that the bot speaks it. */
const langTag = text("language", /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i, ["xxx-xxxxxxxx"]);

/** Buttons of the running flow that are not choices or pages. */
export const FLOW_BUTTONS = ["skip", "recheck", "retry", "off"] as const;
export type FlowButton = (typeof FLOW_BUTTONS)[number];

/** `h`: the price list (a product opens its details); `b`: buying (a product starts the purchase). */
export type PricesMode = "h" | "b";

const refId = text("reference id", new RegExp(`^\\w{1,${REF_ID_MAX_LENGTH}}$`), ["W".repeat(REF_ID_MAX_LENGTH)]);
const page = int(PAGE_MAX);
const groupKey = text("group key", new RegExp(`^[A-Za-z0-9-]{1,${GROUP_KEY_MAX_LENGTH}}$`), ["k".repeat(GROUP_KEY_MAX_LENGTH)]);
const productRef = text("product ref", new RegExp(`^(#[A-Za-z0-9]{10}|[A-Za-z0-9._-]{1,${PRODUCT_CODE_MAX_LENGTH}})$`), [
  "C".repeat(PRODUCT_CODE_MAX_LENGTH),
  "#0123456789",
]);
const mode = oneOf<PricesMode>(["h", "b"]);
// Broadcast drafts are named by the clock in base 36 (11 characters until the year 287,000).
const draftId = text("draft id", /^\w{1,16}$/, ["d".repeat(16)]);
const staffRole = oneOf(["cashier", "admin"]);
/** A private chat's id (a Telegram user id): positive. */
const chatNumber = int(Number.MAX_SAFE_INTEGER);
const customerId = text("customer id", new RegExp(`^[a-z0-9]{1,${CUSTOMER_ID_MAX_LENGTH}}$`), ["c".repeat(CUSTOMER_ID_MAX_LENGTH)]);

// ------------------------------------------------------------------------------------------
// Shapes

type FieldsOf<D> = { readonly [K in keyof D]: D[K] extends Field<infer T> ? T : never };

export interface CallbackShape<F> {
  /** The wire pattern, e.g. `ok:{refId}`. */
  readonly pattern: string;
  encode(fields: F): string;
  decode(data: string): F | undefined;
  /** Field values whose data is longest (every combination of each field's longest values). */
  longest(): F[];
}

type Segment = { literal: string } | { name: string; field: Field<unknown> };

function shape<D extends Record<string, Field<unknown>>>(pattern: string, fields: D): CallbackShape<FieldsOf<D>> {
  type F = FieldsOf<D>;
  const byName = new Map(Object.entries(fields) as [string, Field<unknown>][]);
  const segments: Segment[] = pattern.split(":").map((s) => {
    const name = /^\{(\w+)\}$/.exec(s)?.[1];
    if (name === undefined) return { literal: s };
    const field = byName.get(name);
    if (!field) throw new Error(`callback shape ${pattern}: no field ${name}`);
    return { name, field };
  });
  const named = segments.flatMap((s) => ("name" in s ? [s] : []));
  if (named.length !== byName.size) throw new Error(`callback shape ${pattern}: fields and pattern differ`);
  if (named.slice(0, -1).some((s) => s.field.rest)) throw new Error(`callback shape ${pattern}: only the last field may take the rest`);
  const last = segments[segments.length - 1]!;
  const rest = "field" in last && last.field.rest === true;

  return {
    pattern,
    encode(values) {
      // A loop, not map/join: every button of every screen is encoded on the update's path.
      const v = values as Record<string, unknown>;
      let data = "";
      for (let i = 0; i < segments.length; i++) {
        const s = segments[i]!;
        if (i > 0) data += ":";
        data += "literal" in s ? s.literal : s.field.encode(v[s.name]);
      }
      return data;
    },
    decode(data) {
      const parts = data.split(":");
      if (rest ? parts.length < segments.length : parts.length !== segments.length) return undefined;
      if (rest) parts.splice(segments.length - 1, parts.length, parts.slice(segments.length - 1).join(":"));
      const out: Record<string, unknown> = {};
      for (const [i, s] of segments.entries()) {
        if ("literal" in s) {
          if (parts[i] !== s.literal) return undefined;
          continue;
        }
        const value = s.field.decode(parts[i]!);
        if (value === undefined) return undefined;
        out[s.name] = value;
      }
      return out as F;
    },
    longest() {
      let combos: Record<string, unknown>[] = [{}];
      for (const s of named) combos = combos.flatMap((c) => s.field.longest.map((v) => ({ ...c, [s.name]: v })));
      return combos as F[];
    },
  };
}

/** Callback data of buttons that belong to the running flow (conversation) start with this. */
export const FLOW_PREFIX = "f:";

export const cb = {
  // The confirm engine (src/bot/money/confirm.ts).
  confirm: shape("ok:{refId}", { refId }),
  cancelDraft: shape("no:{refId}", { refId }),
  /** "Buy again" under the warning that the same purchase is still open. */
  confirmAgain: shape("ag:{refId}", { refId }),
  retry: shape("rt:{refId}", { refId }),
  /** Check (or refresh) the status of a transaction; also sent by the watcher. */
  status: shape("st:{refId}", { refId }),
  /** Asks before cancelling; the answer is depositCancelYes / depositCancelNo. */
  depositCancel: shape("dp:x:{refId}", { refId }),
  depositCancelYes: shape("dp:xy:{refId}", { refId }),
  depositCancelNo: shape("dp:xn:{refId}", { refId }),
  depositRelease: shape("dp:i:{refId}", { refId }),
  depositReleaseConfirm: shape("dp:ic:{refId}", { refId }),
  depositReleaseLater: shape("dp:in:{refId}", { refId }),
  broadcastSend: shape("bc:go:{draft}", { draft: draftId }),
  broadcastCancel: shape("bc:no:{draft}", { draft: draftId }),
  historyPage: shape("hp:{page}", { page }),
  historyDetail: shape("hd:{refId}", { refId }),
  /** 🧾 Struk: the customer receipt of a successful sale (src/bot/features/shop.ts). */
  saleReceipt: shape("rc:{refId}", { refId }),
  // Reports and export (src/bot/features/report.ts).
  reportDaily: shape("rp:d:{on}", { on: oneOf(["on", "off"]) }),
  exportMenu: shape("rp:x", {}),
  exportMonth: shape("ex:{month}", { month: text("month", /^\d{4}-(0[1-9]|1[0-2])$/, ["2026-11"]) }),
  menu: shape("menu:{name}", { name: oneOf(MENU_NAMES) }),
  language: shape("lang:{lang}", { lang: langTag }),
  /** /webhook: a new callback URL (the old one stops working). */
  webhookRenew: shape("wh:new", {}),
  /** Leaves whatever flow is running. */
  cancel: shape("cancel", {}),
  // The price browser (src/bot/features/priceBrowser.ts): stateless, every button carries its screen.
  pricesRoot: shape("pr:{mode}:c", { mode }),
  pricesRootRefresh: shape("pr:{mode}:C", { mode }),
  pricesProviders: shape("pr:{mode}:g:{cat}:{page}", { mode, cat: groupKey, page }),
  pricesProducts: shape("pr:{mode}:p:{cat}:{prov}:{page}", { mode, cat: groupKey, prov: groupKey, page }),
  pricesProductsRefresh: shape("pr:{mode}:P:{cat}:{prov}", { mode, cat: groupKey, prov: groupKey }),
  pricesProduct: shape("pr:{mode}:i:{product}", { mode, product: productRef }),
  pricesBills: shape("pr:{mode}:t:{page}", { mode, page }),
  pricesSearch: shape("pr:{mode}:s:{page}:{query}", { mode, page, query: restText(SEARCH_QUERY_MAX_BYTES) }),
  // Buttons of the running flow (src/bot/flows/steps.ts), read by the conversation itself.
  flowChoice: shape("f:c:{index}", { index: int(CHOICE_INDEX_MAX) }),
  flowPage: shape("f:p:{page}", { page }),
  flowButton: shape("f:{button}", { button: oneOf(FLOW_BUTTONS) }),
  /** A saved customer or recent target offered by a flow's prompt: taken as if typed. */
  flowSuggestion: shape("f:s:{index}", { index: int(SUGGESTION_INDEX_MAX) }),
  // Repeat sales and saved customers (src/bot/features/savedCustomers.ts).
  /** "Buy again" under a successful sale: a fresh confirm screen at today's price. */
  buyAgain: shape("ba:{refId}", { refId }),
  saveCustomer: shape("sc:{refId}", { refId }),
  customersPage: shape("cu:p:{page}", { page }),
  customersSearch: shape("cu:s:{page}:{query}", { page, query: restText(SEARCH_QUERY_MAX_BYTES) }),
  customerOpen: shape("cu:i:{id}", { id: customerId }),
  /** Buys the customer's saved product for its target: a fresh confirm screen. */
  customerBuy: shape("cu:b:{id}", { id: customerId }),
  customerRename: shape("cu:r:{id}", { id: customerId }),
  customerDelete: shape("cu:d:{id}", { id: customerId }),
  customerDeleteYes: shape("cu:x:{id}", { id: customerId }),
  // Staff and the audit log (src/bot/features/staff.ts, audit.ts): the owner's screens. "sm:" (staff
  // management): "sf:" is the shop customer's family (shopButtonData.ts).
  staffInvite: shape("sm:n:{role}", { role: staffRole }),
  staffOpen: shape("sm:o:{chat}", { chat: chatNumber }),
  staffRole: shape("sm:r:{chat}:{role}", { chat: chatNumber, role: staffRole }),
  staffRemove: shape("sm:x:{chat}", { chat: chatNumber }),
  /** The owner removes a staff member's forgotten or locked PIN. */
  staffPinReset: shape("sm:p:{chat}", { chat: chatNumber }),
  /** The owner also gets the notices of staff purchases. */
  staffNotices: shape("sm:m:{on}", { on: oneOf(["on", "off"]) }),
  /** Cashiers see the owner's cost and balance on the confirm screen. */
  staffCost: shape("sm:c:{on}", { on: oneOf(["on", "off"]) }),
  /** A staff member confirms leaving: the membership it asked about (owner, joined at), so an old button ends no newer one. */
  staffLeave: shape("sm:l:{owner}:{since}", { owner: chatNumber, since: int(Number.MAX_SAFE_INTEGER) }),
  /** A staff member keeps its membership after all. */
  staffStay: shape("sm:k", {}),
  auditMore: shape("au:{seq}", { seq: int(Number.MAX_SAFE_INTEGER) }),
  // The owner's downlines (src/bot/features/downline.ts, docs/wallets.md).
  downlineInvite: shape("dl:n:{level}", { level: int(9) }),
  downlineOpen: shape("dl:o:{chat}", { chat: chatNumber }),
  /** Another page of the owner's list. */
  downlinePage: shape("dl:p:{page}", { page }),
  downlineLevel: shape("dl:l:{chat}:{level}", { chat: chatNumber, level: int(9) }),
  downlineSuspend: shape("dl:s:{chat}:{on}", { chat: chatNumber, on: oneOf(["on", "off"]) }),
  downlineRemove: shape("dl:x:{chat}", { chat: chatNumber }),
  /** The upline removes a downline's forgotten or locked PIN. */
  downlinePinReset: shape("dl:r:{chat}", { chat: chatNumber }),
  /** Add to (`in`) or take from (`out`) a downline's wallet by hand: asks the amount and the reason. */
  downlineAdjust: shape("dl:a:{chat}:{way}", { chat: chatNumber, way: oneOf(["in", "out"]) }),
  /** Confirms an adjustment by hand; its ref was made with the screen, so a double tap posts once. */
  downlineAdjustYes: shape("dl:k:{ref}", { ref: refId }),
  /** Cancels an adjustment by hand before it is confirmed: the wallet is not touched. */
  downlineAdjustNo: shape("dl:q:{ref}", { ref: refId }),
  /** A downline's payout request (/tarik): the owner opens the ordinary transfer confirm screen for it, or declines. */
  payoutOpen: shape("po:o:{refId}", { refId }),
  payoutDecline: shape("po:d:{refId}", { refId }),
  /** The owner allows (`on`) a downline to invite downlines of its own, or no longer (`off`). */
  downlineMayInvite: shape("dl:i:{chat}:{on}", { chat: chatNumber, on: oneOf(["on", "off"]) }),
  /** The owner turns a downline's H2H access on (`on`) or off (docs/h2h.md). */
  downlineH2h: shape("dl:h:{chat}:{on}", { chat: chatNumber, on: oneOf(["on", "off"]) }),
  /** A downline's /h2h: a new key (shown once; the old one stops at once). */
  h2hNewKey: shape("h2:k", {}),
  /** A downline's /mutasi, the page before entry `seq`. */
  walletMore: shape("mu:{seq}", { seq: int(Number.MAX_SAFE_INTEGER) }),
  /** A downline's /mutasi as a CSV file. */
  walletCsv: shape("mu:csv", {}),
  exportAudit: shape("rp:a", {}),
  // The PIN keypad (src/bot/pin/): each digit button carries its one digit; what was typed stays in memory.
  pinDigit: shape("pn:d:{digit}", { digit: int(9) }),
  pinBack: shape("pn:b", {}),
  pinOk: shape("pn:k", {}),
  pinCancel: shape("pn:x", {}),
  /** /pin: change the PIN (asks the old one first). */
  pinChange: shape("pn:c", {}),
  /** /pin: the presets of the purchase threshold (`beli`) or the daily limit (`batas`). */
  pinPick: shape("pn:p:{what}", { what: oneOf(["beli", "batas"]) }),
  /** /pin: a preset chosen (rupiah; 0: off), applied behind the PIN. */
  pinSet: shape("pn:s:{what}:{amount}", { what: oneOf(["beli", "batas"]), amount: int(1_000_000_000) }),
  /** /pin: how to type an amount of one's own. */
  pinOwn: shape("pn:o:{what}", { what: oneOf(["beli", "batas"]) }),
  /** "Bukan saya" under an announcement of a money-out or security change: freezes money-out. */
  pinNotMe: shape("pn:n", {}),
} as const;

export type CallbackName = keyof typeof cb;
/** The fields of a shape, e.g. `CallbackFields<"confirm">` is `{ refId: string }`. */
export type CallbackFields<N extends CallbackName> = (typeof cb)[N] extends CallbackShape<infer F> ? F : never;

const PRICES_SHAPES = [
  cb.pricesRoot,
  cb.pricesRootRefresh,
  cb.pricesProviders,
  cb.pricesProducts,
  cb.pricesProductsRefresh,
  cb.pricesProduct,
  cb.pricesBills,
  cb.pricesSearch,
];

/** Whether data is a button of the price browser (its screens edit their own message). */
export function isPricesData(data: string | undefined): boolean {
  return data !== undefined && PRICES_SHAPES.some((s) => s.decode(data) !== undefined);
}

/** Whether data belongs to the running flow: the flow answers it, stale or not. */
export function isFlowData(data: string | undefined): boolean {
  return data?.startsWith(FLOW_PREFIX) ?? false;
}

/** A family of callback data: the first segments (before the first ":") its buttons' data start with. */
export interface ButtonFamily {
  readonly name: string;
  readonly prefixes: readonly string[];
}

/** The first segment of callback data or of a shape's pattern. */
export const firstSegment = (data: string): string => data.split(":", 1)[0]!;

/**
 * Every family of callback data the bot puts on buttons, in one list: the shapes above (one family per
 * first segment of their patterns), the shop's and the shop orders' codecs. A handler of one family reads
 * only its own data, so no two may share a first segment (test/core/buttonFamilies.test.ts).
 */
export function buttonFamilies(): ButtonFamily[] {
  const byPrefix = new Map<string, string[]>();
  for (const [name, s] of Object.entries(cb)) {
    const prefix = firstSegment(s.pattern);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
  }
  return [
    ...[...byPrefix].map(([prefix, names]) => ({ name: `bot: ${names.join(", ")}`, prefixes: [prefix] })),
    ...SHOP_BUTTON_FAMILIES,
    ORDER_BUTTON_FAMILY,
  ];
}

/** First segments claimed by more than one family, with the families that claim each. */
export function sharedPrefixes(families: readonly ButtonFamily[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const f of families) for (const p of new Set(f.prefixes)) owners.set(p, [...(owners.get(p) ?? []), f.name]);
  return new Map([...owners].filter(([, names]) => names.length > 1));
}
