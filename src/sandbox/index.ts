/**
 * An HTTP simulator of the reseller API (same 15 POST endpoints, same quirks, believable state)
 * for tests, benchmarks and trying the bot without a real key. Deterministic rules: rules.ts.
 */
import { randomInt } from "node:crypto";
import { systemClock, type Clock } from "../tools/clock.js";
import { callbackBody, createApi } from "./api.js";
import { callbackSignature } from "../domain/providerCallbacks.js";
import { postpaidCatalog, prepaidCatalog, type PrepaidProductDef } from "./catalog.js";
import { Core, type CoreState } from "./state.js";
import { Deposits, type DepositsState } from "./deposits.js";
import type { AccountStatus } from "./rules.js";
import { Sales, type SalesState } from "./sales.js";
import { readStateFile, StateFile } from "./stateFile.js";
import { SandboxServer, type FaultKind, type RecordedCall, type Reshape } from "./server.js";

export { crc16ccitt, buildQris, parseTlv, verifyQrisCrc } from "./qris.js";
export { SANDBOX_CUSTOMERS, LATE_QRIS_WINDOW_MS } from "./rules.js";
export type { FaultKind, RecordedCall, Reshape } from "./server.js";
export type { AccountStatus } from "./rules.js";

/** The key printed for demo users. */
export const DEMO_KEY = "DEMO-PPOB-SANDBOX-2026";
/** A key bound to another IP: every call is refused with a message naming the caller's IP. */
export const IP_BOUND_KEY = "IPBOUND-KEY";

/** Keys present unless `keys` is given (IP_BOUND_KEY is always added). */
export const DEFAULT_KEYS: { key: string; name: string; balance: number }[] = [
  { key: DEMO_KEY, name: "Demo Reseller", balance: 1_000_000 },
  { key: "SANDBOX-KEY-2", name: "Konter Pulsa Makmur", balance: 250_000 },
  { key: "SANDBOX-KEY-NEW", name: "Konter Baru", balance: 50_000 },
  { key: "SANDBOX-KEY-LOW", name: "Saldo Tipis Cell", balance: 5_000 },
  { key: "SANDBOX-KEY-ZERO", name: "Saldo Kosong Cell", balance: 0 },
];

export interface SandboxOptions {
  clock?: Clock;
  host?: string;
  port?: number;
  /** How long a prepaid/postpaid/transfer stays pending before it resolves. */
  settleMs?: number;
  keys?: { key: string; name?: string; balance: number }[];
  /** Demo: deposits get paid this long after creation (and processing ones settle H+1). null = only via payDeposit(). */
  autoPayDepositsAfterMs?: number | null;
  seed?: number;
  /**
   * Keep accounts, balances, records and catalogue changes in this JSON file: read at start, written
   * on change, so a restart goes on where it stopped (the playground). None: all in memory.
   */
  stateFile?: string;
}

/** What the state file holds. */
interface SandboxState {
  version: 1;
  core: CoreState;
  sales: SalesState;
  deposits: DepositsState;
}

export interface Sandbox {
  url: string;
  demoKey: string;
  close(): Promise<void>;
  addKey(key: string, balance: number, name?: string): void;
  balance(key: string): number;
  /** The username the provider reports for a key (it signs the key's callbacks). */
  username(key: string): string;
  setBalance(key: string, amount: number): void;
  setPrice(code: string, price: number): void;
  setProductStatus(code: string, status: "available" | "empty"): void;
  /**
   * A prepaid product the catalogue lacks (another route to a face value, for alternatives); the
   * status defaults to available. Replaces a product of the same code.
   */
  addProduct(product: Omit<PrepaidProductDef, "status" | "img_url"> & { status?: "available" | "empty" }): void;
  /** While on, a create of `code` is refused as out of order although the list shows it available. */
  setDisturbed(code: string, on: boolean): void;
  /** Changes a prepaid product's name and/or note (e.g. a provider's 6,000-character note). */
  setProductText(code: string, text: { name?: string; note?: string }): void;
  /** pending -> processing (qris/va/e-wallet) or success (qrisfast, bank); a QRIS up to 15 min after expiry too. */
  payDeposit(id: string): void;
  /** processing -> success (the H+1 settlement). */
  settleDeposit(id: string): void;
  /**
   * A pending prepaid/bill payment/transfer (provider id or reference) resolves now with `outcome`,
   * whatever its rule says (a failure refunds). False when it was already final. Pair with a long
   * `settleMs` to choose when each transaction changes.
   */
  settle(idOrReff: string, outcome: "success" | "failed"): boolean;
  setAccountStatus(bankCode: string, accountNumber: string, status: AccountStatus, holderName?: string): void;
  /** The next `times` calls to `endpoint` misbehave. timeout/malformed still apply the request. */
  fault(endpoint: string, kind: FaultKind, times?: number): void;
  /** The faults still queued for `endpoint` are dropped: it answers normally again. */
  clearFaults(endpoint: string): void;
  /** How many faults are still queued for `endpoint` (the next calls they spoil, in order). */
  faultsQueued(endpoint: string): number;
  /** Calls held (a "timeout" fault, holdNext()) whose client has not given up yet (of `endpoint`, or of all). */
  hanging(endpoint?: string): number;
  /** The next call to `endpoint` takes effect and is recorded; its answer waits until `release()` is called. */
  holdNext(endpoint: string): () => void;
  /** Holds queued by holdNext() for `endpoint` that no call has taken yet. */
  holdsQueued(endpoint: string): number;
  /** Every answer waits `ms` (real time): a slow provider; 0 = back to normal. */
  setLatency(ms: number): void;
  /** The next answer of `endpoint` comes in an older or odd shape (fields left out). */
  reshape(endpoint: string, reshape: Reshape): void;
  calls(endpoint?: string): RecordedCall[];
  /** A snapshot of any record by provider id or client reference, status brought up to date. */
  transaction(idOrReff: string): unknown;
  /**
   * Sandbox-only stand-in for the provider dashboard's webhook setting: where the callbacks of an
   * api key go (one URL per chat linked with it: demo chats share keys). Set = records change on
   * the clock and every change is POSTed, signed, to these URLs; undefined = no callbacks.
   */
  /**
   * Where the callbacks of an api key go (the dashboard setting's stand-in). `post` delivers one
   * request (default: fetch over HTTP; the bot without an HTTP server hands its route in-process).
   */
  setCallbackTarget(target: CallbackTarget | undefined, post?: CallbackPost): void;
  /** Resolves once every callback sent so far was answered (tests). */
  callbacksIdle(): Promise<void>;
  /** Callbacks sent: where, which event and status, and the answer's HTTP status (0: no answer). */
  callbacksSent(): { url: string; event: string; status: string; answer: number }[];
}

/** The callback URLs of the chats linked with an api key (the bot's store answers, asynchronously). */
export type CallbackTarget = (apiKey: string) => string[] | Promise<string[]>;

/** One callback request: fetch's signature, so an in-process route (Hono's `app.request`) fits too. */
export type CallbackPost = (url: string, init: RequestInit) => Response | Promise<Response>;

export async function createSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const core = new Core(opts.clock ?? systemClock, opts.seed ?? randomInt(2 ** 31));
  const sales = new Sales(core, opts.settleMs ?? 5000, prepaidCatalog(), postpaidCatalog());
  const deposits = new Deposits(core, opts.autoPayDepositsAfterMs ?? null);
  const keys = opts.keys ?? DEFAULT_KEYS;
  for (const k of keys) core.addAccount(k.key, k.balance, k.name);
  core.addAccount(IP_BOUND_KEY, 500_000, "Reseller IP Terikat", true);
  const saved = opts.stateFile === undefined ? undefined : await readStateFile<SandboxState>(opts.stateFile);
  if (saved?.version === 1) {
    core.restore(saved.core);
    sales.restore(saved.sales);
    deposits.restore(saved.deposits);
  }
  const stateFile =
    opts.stateFile === undefined
      ? undefined
      : new StateFile(opts.stateFile, (): SandboxState => ({ version: 1, core: core.snapshot(), sales: sales.snapshot(), deposits: deposits.snapshot() }), core.clock);
  const api = createApi(core, sales, deposits);

  const server = new SandboxServer({
    now: () => core.clock.now(),
    handle: (path, params, ip) => {
      try {
        return api(path, params, ip);
      } finally {
        stateFile?.soon();
      }
    },
    qrString: (id) => deposits.byId.get(id)?.extra.qr_string,
    pay: (id) => {
      core.sweep();
      deposits.pay(id);
    },
  });
  const url = await server.listen(opts.host ?? "127.0.0.1", opts.port ?? 0);
  core.baseUrl = url;

  let target: CallbackTarget | undefined;
  let post: CallbackPost = fetch;
  const inflight = new Set<Promise<void>>();
  const sent: { url: string; event: string; status: string; answer: number }[] = [];
  const send = (urls: string[], username: string, body: ReturnType<typeof callbackBody>) => {
    for (const to of urls) {
      const entry = { url: to, event: body.event, status: body.status, answer: 0 };
      sent.push(entry);
      const p = Promise.resolve()
        .then(() => post(to, {
        method: "POST",
        headers: { "content-type": "application/json", "x-atl-signature": callbackSignature(username) },
        body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        }))
        .then(async (res) => {
          entry.answer = res.status;
          await res.body?.cancel();
        })
        .catch(() => undefined) // a lost callback: the bot's polling is the safety net
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
  };
  core.onChange = (rec) => {
    stateFile?.soon();
    const acc = core.accounts.get(rec.key);
    const to = target;
    if (!acc || !to) return;
    const body = callbackBody(rec as Parameters<typeof callbackBody>[0]); // the change as it is now
    // The URL lookup is in flight too, so callbacksIdle() waits for the callbacks it leads to.
    const p = Promise.resolve()
      .then(() => to(rec.key))
      .then((urls) => send(urls, acc.username, body))
      .catch(() => undefined)
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  // Controls run a sweep first so due refunds and credits are visible to the caller.
  // Every control can change the state: written soon after (nothing without a state file).
  const saving = <T>(fn: () => T): T => {
    try {
      return fn();
    } finally {
      stateFile?.soon();
    }
  };
  const control = <T>(fn: () => T): T => {
    core.sweep();
    return saving(fn);
  };
  const product = (code: string) => {
    const p = sales.product(code);
    if (!p) throw new Error(`sandbox: unknown product ${code}`);
    return p;
  };

  return {
    url,
    demoKey: keys[0]?.key ?? DEMO_KEY,
    close: async () => {
      target = undefined;
      core.stopTimers();
      await server.close();
      await stateFile?.flush();
    },
    addKey: (key, balance, name) => saving(() => void core.addAccount(key, balance, name)),
    balance: (key) => control(() => core.account(key).balance),
    username: (key) => core.account(key).username,
    setBalance: (key, amount) => control(() => void (core.account(key).balance = amount)),
    setPrice: (code, price) => saving(() => void (product(code).price = price)),
    setProductStatus: (code, status) =>
      saving(() => {
        const biller = sales.billers.get(code);
        if (biller && !sales.product(code)) biller.status = status;
        else product(code).status = status;
      }),
    addProduct: (p) => saving(() => void sales.products.set(p.code, { status: "available", img_url: "", ...p })),
    setDisturbed: (code, on) => saving(() => void (on ? sales.disturbed.add(product(code).code) : sales.disturbed.delete(product(code).code))),
    setProductText: (code, text) => saving(() => void Object.assign(product(code), text)),
    payDeposit: (id) => control(() => void deposits.pay(id)),
    settleDeposit: (id) => control(() => void deposits.settle(id)),
    settle: (idOrReff, outcome) => control(() => sales.settleNow(idOrReff, outcome)),
    setAccountStatus: (bank, number, status, holder) => saving(() => sales.setAccountStatus(bank, number, status, holder)),
    fault: (endpoint, kind, times) => server.fault(endpoint, kind, times),
    clearFaults: (endpoint) => server.clearFaults(endpoint),
    faultsQueued: (endpoint) => server.faultsQueued(endpoint),
    hanging: (endpoint) => server.hanging(endpoint),
    reshape: (endpoint, r) => server.reshape(endpoint, r),
    holdNext: (endpoint) => server.holdNext(endpoint),
    holdsQueued: (endpoint) => server.holdsQueued(endpoint),
    setLatency: (ms) => server.setLatency(ms),
    calls: (endpoint) => server.calls(endpoint),
    setCallbackTarget: (t, via) => {
      target = t;
      post = via ?? fetch;
      if (t) core.runOnClock();
    },
    callbacksIdle: async () => {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    callbacksSent: () => sent.map((e) => ({ ...e })),
    transaction: (idOrReff) =>
      control(() => {
        const rec = sales.find(idOrReff) ?? deposits.find(idOrReff);
        if (!rec) return undefined;
        // A plain copy; the method definition is reduced to its code.
        return "method" in rec ? { ...rec, method: rec.method.metode, extra: { ...rec.extra } } : { ...rec };
      }),
  };
}
