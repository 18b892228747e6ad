/**
 * A customer's walk from a product to "Bayar dengan QRIS" (doc kind `shop_cart`, one per customer
 * chat, owner = the shop's owner): `target` while the bot waits for the number, `summary` while the
 * pay button is shown, `paying` once it was pressed (a second press finds nothing), `idle` after.
 * The pay button names the cart's nonce, so a button of an older summary is stale.
 */
import { randomInt } from "node:crypto";
import * as z from "../../tools/zod.js";
import { DuplicateDocError } from "../../store/index.js";
import type { Doc, DocKind, DocStore } from "./shopDocs.js";

export type CartState = "target" | "summary" | "paying" | "idle";

export interface Cart {
  /** The shop the customer was in when it began. */
  owner: number;
  productCode: string;
  target?: string | undefined;
  /** What the summary showed to pay: a different price at the tap shows the summary again. */
  pay?: number | undefined;
  /** Names the summary whose pay button may be pressed. */
  nonce: string;
  /** When the step began (epoch ms): a step older than CART_STEP_MS is over. */
  at: number;
}

export const CartKind: DocKind<Cart> = {
  name: "shop_cart",
  schema: z.object({
    owner: z.int(),
    productCode: z.string().check(z.maxLength(100)),
    target: z.optional(z.string().check(z.maxLength(100))),
    pay: z.optional(z.int()),
    nonce: z.string().check(z.maxLength(16)),
    at: z.number(),
  }),
};

/** How long a step waits for the customer (as the reseller's flows: 10 minutes). */
export const CART_STEP_MS = 10 * 60_000;
export const NONCE_PATTERN = /^[a-z0-9]{8}$/;

function newNonce(): string {
  let nonce = "";
  for (let i = 0; i < 8; i++) nonce += "abcdefghijklmnopqrstuvwxyz0123456789"[randomInt(36)];
  return nonce;
}

export class ShopCarts {
  constructor(private readonly store: DocStore) {}

  /** The customer's cart if its step is still live at `now`. */
  async current(customer: number, now: number): Promise<Doc<Cart> | undefined> {
    const doc = await this.store.getDoc(CartKind, String(customer));
    if (!doc || doc.state === "idle" || now - doc.value.at > CART_STEP_MS) return undefined;
    return doc;
  }

  /** Starts (or restarts) the walk at the target step for `productCode`. */
  async begin(customer: number, owner: number, productCode: string, now: number): Promise<Doc<Cart>> {
    return this.put(customer, owner, "target", { owner, productCode, nonce: newNonce(), at: now });
  }

  /** The target was accepted: the summary with a fresh nonce. Undefined when the cart changed meanwhile. */
  async toSummary(cart: Doc<Cart>, target: string, pay: number, now: number): Promise<Doc<Cart> | undefined> {
    return this.store.updateDoc(CartKind, cart.id, { version: cart.version, states: ["target"] }, {
      state: "summary",
      value: { ...cart.value, target, pay, nonce: newNonce(), at: now },
    });
  }

  /** The price changed between the summary and the tap: a new summary (a new nonce) at the new price. */
  async reprice(cart: Doc<Cart>, pay: number, now: number): Promise<Doc<Cart> | undefined> {
    return this.store.updateDoc(CartKind, cart.id, { version: cart.version, states: ["paying"] }, {
      state: "summary",
      value: { ...cart.value, pay, nonce: newNonce(), at: now },
    });
  }

  /** The pay button of summary `nonce` was pressed: only the first press of a live summary wins. */
  async claimPay(customer: number, nonce: string, now: number): Promise<Doc<Cart> | undefined> {
    const cart = await this.current(customer, now);
    if (cart?.state !== "summary" || cart.value.nonce !== nonce) return undefined;
    return this.store.updateDoc(CartKind, cart.id, { version: cart.version, states: ["summary"] }, { state: "paying" });
  }

  async clear(customer: number): Promise<boolean> {
    const updated = await this.store.updateDoc(CartKind, String(customer), { states: ["target", "summary", "paying"] }, { state: "idle" });
    return updated !== undefined;
  }

  private async put(customer: number, owner: number, state: CartState, value: Cart): Promise<Doc<Cart>> {
    const id = String(customer);
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.store.getDoc(CartKind, id);
      if (!doc) {
        const created = await this.store.createDoc(CartKind, { id, owner, state, value }).catch(onlyDuplicate);
        if (created) return created;
        continue;
      }
      const updated = await this.store.updateDoc(CartKind, id, { version: doc.version }, { state, value });
      if (updated) return updated;
    }
    throw new Error("shop cart: too many concurrent changes");
  }
}

/** Another writer created the document first: undefined, and the caller reads theirs. */
function onlyDuplicate(err: unknown): undefined {
  if (err instanceof DuplicateDocError) return undefined;
  throw err;
}
