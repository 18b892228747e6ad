/** What the shop order job is given and tuned with, shared by its parts (the walk, the purchases, the notices). */
import type { Api, InlineKeyboard, InputFile } from "grammy";
import type { Clock } from "../../tools/clock.js";
import type { Logger } from "../../logging/logger.js";
import type { Store } from "../../store/index.js";
import type { UpstreamClient } from "../../upstream/client.js";
import type { Ledger } from "../../domain/ledger.js";
import type { MoneyEngine } from "../../money/createOnce.js";
import type { TxEvents } from "../../domain/events.js";
import type { Translate } from "../../render/i18n.js";
import type { Pacer } from "../../telegram/pacer.js";
import type { ShopOrders } from "../../domain/shop/orders.js";
import type { ShopSettingsReader } from "../../domain/shop/orderSettings.js";

export interface ShopOrderJobOptions {
  /** How often the working orders are looked at (expiry, lost callbacks, a balance topped up). */
  sweepMs: number;
  /** An unpaid order's deposit is cancelled this long after the QR's expiry at the latest. */
  draftLostMs: number;
  /** How long an unconfirmed refund transfer draft stays offered before the order asks again. */
  refundDraftMs: number;
}

export const DEFAULT_SHOP_ORDER_OPTIONS: ShopOrderJobOptions = { sweepMs: 10_000, draftLostMs: 60_000, refundDraftMs: 15 * 60_000 };

export interface ShopOrderJobDeps {
  store: Store;
  orders: ShopOrders;
  ledger: Ledger;
  /** The money engine: the purchase's one create. */
  money: MoneyEngine;
  upstream: UpstreamClient;
  api: Api;
  pacer?: Pacer | undefined;
  translate: Translate;
  clock: Clock;
  logger: Logger;
  events: TxEvents;
  sandbox: boolean;
  /**
   * Asks the watcher to check a transaction soon, under its per-key cap. A shop's burst of orders makes
   * more provider callbacks than one chat may send in a minute: the job does not wait for those.
   */
  hurry?: (refId: string) => void;
  /** False while another process leads: the sweep is the leader's (a standby still takes its own users' steps). */
  leading?: () => boolean;
  /** The shop settings service (ctx.deps.shop) once there is one; the defaults otherwise. */
  shop?: () => ShopSettingsReader | undefined;
  /** More of the same kind run by each sweep: drafts left unconfirmed elsewhere (a downline's payout request). */
  alsoSweep?: () => Promise<void>;
  options?: Partial<ShopOrderJobOptions>;
}

/** What the parts ask of the job's life: whether it is stopping, and a background piece of work to wait for at stop. */
export interface JobLife {
  stopped(): boolean;
  track(work: Promise<unknown>): void;
}

/** A notice's words (HTML), maybe a photo and buttons, in the recipient's language. */
export type Compose = (
  t: (key: string, vars?: Record<string, string | number>) => string,
  lang: string,
) => { text: string; photo?: InputFile; markup?: InlineKeyboard } | Promise<{ text: string; photo?: InputFile; markup?: InlineKeyboard }>;

/** The owner's provider key; undefined when none, or it cannot be opened (a wrong STORE_SECRET: nothing can be bought for this shop now). */
export async function ownerKey(store: Store, owner: number): Promise<string | undefined> {
  try {
    return await store.getApiKey(owner);
  } catch {
    return undefined;
  }
}
