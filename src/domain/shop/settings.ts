/**
 * A reseller's online shop: its settings (doc kind `shop`, id = the owner's chat id) and its links
 * (doc kind `shop_code`, id = the code in https://t.me/<bot>?start=<code>, active or revoked). A code
 * is random (62^12): a guessed or retired one finds nothing. `shopStatus` (pure) says whether the
 * shop sells now, on WIB hours.
 */
import { randomInt } from "node:crypto";
import * as z from "../../tools/zod.js";
import { WIB_OFFSET_MS } from "../../tools/time.js";
import { ShopCarts } from "./cart.js";
import { DuplicateDocError } from "../../store/index.js";
import type { Doc, DocKind, DocStore } from "./shopDocs.js";

export const SHOP_CODE_LENGTH = 12;
/** What a shop code looks like (Telegram's start parameter allows it as is). */
export const SHOP_CODE_PATTERN = /^[A-Za-z0-9]{12}$/;
const CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const CONTACT_MAX = 100;
export const DAILY_CAP_MAX = 1000;
export const DEFAULT_DAILY_CAP = 50;
/** "HH:MM", 00:00..23:59. */
export const HOUR_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export type FeePayer = "customer" | "reseller";

export interface ShopHours {
  open: string;
  close: string;
}

export interface ShopConfig {
  enabled: boolean;
  paused: boolean;
  /** The active link's code; "" before the first link. */
  code: string;
  /** Category keys (bot/catalog.ts groupKey) sold; none: every category. */
  categories?: string[] | undefined;
  /** Operators (bot/targets.ts Operator) whose phone products are sold; none: every operator. */
  operators?: string[] | undefined;
  hours?: ShopHours | undefined;
  feePayer: FeePayer;
  /** What the customer pays is rounded up to this many rupiah (PAY_STEPS); absent: DEFAULT_PAY_STEP. */
  payStep?: number | undefined;
  /** The owner allows releasing a paid QRIS at once (for the provider's fee) when the balance is short. */
  instantRelease: boolean;
  /** Unpaid QRIS deposits the shop may open in one WIB day. */
  dailyUnpaidCap: number;
  /** The line customers see under "Kontak". */
  contact?: string | undefined;
}

const hour = z.string().check(z.regex(HOUR_PATTERN));
const ShopConfigSchema = z.object({
  enabled: z.boolean(),
  paused: z.boolean(),
  code: z.string().check(z.maxLength(SHOP_CODE_LENGTH)),
  categories: z.optional(z.array(z.string().check(z.maxLength(40))).check(z.maxLength(100))),
  operators: z.optional(z.array(z.string().check(z.maxLength(20))).check(z.maxLength(20))),
  hours: z.optional(z.object({ open: hour, close: hour })),
  feePayer: z.enum(["customer", "reseller"]),
  payStep: z.optional(z.int().check(z.positive(), z.maximum(1000))),
  instantRelease: z.boolean(),
  dailyUnpaidCap: z.int().check(z.minimum(1), z.maximum(DAILY_CAP_MAX)),
  contact: z.optional(z.string().check(z.maxLength(CONTACT_MAX))),
});

/** The steps the owner picks from for what customers pay, in the settings' order. */
export const PAY_STEPS = [100, 500, 1000, 1] as const;
export const DEFAULT_PAY_STEP = 100;

/** The shop's step for what customers pay. */
export function payStepOf(shop: Pick<ShopConfig, "payStep">): number {
  return shop.payStep ?? DEFAULT_PAY_STEP;
}

export const ShopKind: DocKind<ShopConfig> = { name: "shop", schema: ShopConfigSchema };

export interface ShopCode {
  owner: number;
}
export const ShopCodeKind: DocKind<ShopCode> = { name: "shop_code", schema: z.object({ owner: z.int() }) };

export const DEFAULT_SHOP: Readonly<ShopConfig> = Object.freeze({
  enabled: false,
  paused: false,
  code: "",
  feePayer: "customer",
  instantRelease: false,
  dailyUnpaidCap: DEFAULT_DAILY_CAP,
});

/** Whether the shop sells now, and if not why: turned off, paused by the owner, or outside its hours. */
export type ShopStatus = "open" | "off" | "paused" | "closed";

/** Minutes since midnight of "HH:MM". */
function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  return h * 60 + m;
}

/** Within opening hours at `now` (WIB); a closing time before the opening time runs past midnight. */
export function withinHours(hours: ShopHours | undefined, now: number): boolean {
  if (!hours) return true;
  const minute = Math.floor(((now + WIB_OFFSET_MS) % 86_400_000) / 60_000);
  const open = minutesOf(hours.open);
  const close = minutesOf(hours.close);
  if (open === close) return true;
  return open < close ? minute >= open && minute < close : minute >= open || minute < close;
}

export function shopStatus(shop: Readonly<ShopConfig>, now: number): ShopStatus {
  if (!shop.enabled) return "off";
  if (shop.paused) return "paused";
  return withinHours(shop.hours, now) ? "open" : "closed";
}

export function isOpen(shop: Readonly<ShopConfig>, now: number): boolean {
  return shopStatus(shop, now) === "open";
}

function stateOf(shop: Readonly<ShopConfig>): string {
  return !shop.enabled ? "off" : shop.paused ? "paused" : "on";
}

/** A fresh random code: 12 characters of [A-Za-z0-9], from the system's secure generator. */
export function newShopCode(): string {
  let code = "";
  for (let i = 0; i < SHOP_CODE_LENGTH; i++) code += CODE_CHARS[randomInt(CODE_CHARS.length)];
  return code;
}

const RACE_RETRIES = 5;

export class ShopSettings {
  /** Each customer's walk from a product to paying (domain/shop/cart.ts). */
  readonly carts: ShopCarts;

  constructor(private readonly store: DocStore) {
    this.carts = new ShopCarts(store);
  }

  /** The owner's shop as set; a shop never set is DEFAULT_SHOP (off, no link). */
  async get(owner: number): Promise<Readonly<ShopConfig>> {
    return (await this.store.getDoc(ShopKind, String(owner)))?.value ?? DEFAULT_SHOP;
  }

  /** Changes the fields in `patch` (a field set to undefined is removed), compare-and-set on the version. */
  async update(owner: number, patch: Partial<Omit<ShopConfig, "code">>): Promise<Readonly<ShopConfig>> {
    return (await this.change(owner, (current) => ({ ...current, ...patch }))).value;
  }

  /**
   * A new link: a new active code, saved on the shop; the old code is revoked after, so from then on
   * it finds nothing. Returns the new code.
   */
  async newLink(owner: number): Promise<string> {
    let code = newShopCode();
    for (let i = 0; (await this.store.getDoc(ShopCodeKind, code)) !== undefined && i < RACE_RETRIES; i++) code = newShopCode();
    await this.store.createDoc(ShopCodeKind, { id: code, owner, state: "active", value: { owner } });
    let old = "";
    await this.change(owner, (current) => {
      old = current.code;
      return { ...current, code };
    });
    if (old && old !== code) await this.store.updateDoc(ShopCodeKind, old, { states: ["active"] }, { state: "revoked" });
    // Durable before the owner prints it: a restart neither loses the link nor revives the old one.
    await this.store.flush();
    return code;
  }

  /** The owner of the shop whose active link is `code`; undefined for anything else (malformed, unknown, retired). */
  async byCode(code: string): Promise<number | undefined> {
    if (!SHOP_CODE_PATTERN.test(code)) return undefined;
    const doc = await this.store.getDoc(ShopCodeKind, code);
    if (doc?.state !== "active") return undefined;
    const shop = await this.get(doc.value.owner);
    return shop.code === code ? doc.value.owner : undefined;
  }

  /** Read, change, compare-and-set; a racing writer makes it read again. */
  private async change(owner: number, make: (current: Readonly<ShopConfig>) => ShopConfig): Promise<Doc<ShopConfig>> {
    const id = String(owner);
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      const doc = await this.store.getDoc(ShopKind, id);
      const value = withoutUndefined(make(doc?.value ?? DEFAULT_SHOP));
      if (!doc) {
        const created = await this.store.createDoc(ShopKind, { id, owner, state: stateOf(value), value }).catch(onlyDuplicate);
        if (created) return created;
        continue; // another writer created it first: change theirs
      }
      const updated = await this.store.updateDoc(ShopKind, id, { version: doc.version }, { state: stateOf(value), value });
      if (updated) return updated;
    }
    throw new Error("shop settings: too many concurrent changes");
  }
}

function withoutUndefined(shop: ShopConfig): ShopConfig {
  return Object.fromEntries(Object.entries(shop).filter(([, v]) => v !== undefined)) as unknown as ShopConfig;
}

/** Another writer created the document first: undefined, and the caller reads theirs. */
function onlyDuplicate(err: unknown): undefined {
  if (err instanceof DuplicateDocError) return undefined;
  throw err;
}
