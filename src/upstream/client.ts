/**
 * HTTP client for the reseller API (one method per endpoint). Every chat links its own api key, so
 * the key is an argument of each call and never stored here.
 *
 * Failure policy:
 * - reads retry `UpstreamUnavailable` with exponential backoff + jitter (sleeping on the injected
 *   clock); refusals and schema failures are final;
 * - creates (purchase, bill payment, transfer, deposit, instant release) never retry: after a
 *   timeout the provider may have acted, so the error carries `outcomeUnknown` and the caller must
 *   look the operation up instead of sending it again (a retry with a new id double-charges).
 *
 * Over 350 lines: one short method per endpoint (15) around one read path and one create path; the
 * two failure policies above are the reason to keep them side by side.
 */
import { Agent } from "undici";
import type * as z from "../tools/zod.js";
import { systemClock, type Clock } from "../tools/clock.js";
import { decodeAnswer, type HttpAnswer } from "./decode.js";
import { ENDPOINTS, type EndpointPath } from "./endpoints.js";
import { UpstreamError, UpstreamUnavailable, redactSecret, type TransportFailure } from "./errors.js";
import { billInquirySchema, billPaymentSchema } from "./schemas/bills.js";
import { depositCancelSchema, depositMethodListSchema, depositSchema, instantDepositSchema } from "./schemas/deposits.js";
import { skippedItems } from "./schemas/fields.js";
import { postpaidListSchema, prepaidListSchema } from "./schemas/prices.js";
import { profileSchema } from "./schemas/profile.js";
import { prepaidTransactionSchema } from "./schemas/transactions.js";
import { accountCheckSchema, bankListSchema, transferSchema } from "./schemas/transfers.js";
import type {
  AccountCheck,
  Bank,
  BillInquiry,
  BillPayment,
  Deposit,
  DepositCancel,
  DepositMethod,
  InstantDeposit,
  PostpaidProduct,
  PrepaidProduct,
  PrepaidTransaction,
  Profile,
  Transfer,
} from "./types.js";

export interface UpstreamClientOptions {
  baseUrl: string;
  /** Told of every answered or failed call (metrics, health): outcome "ok", "rejected", "timeout", ... */
  onCall?: (endpoint: EndpointPath, outcome: string, seconds: number) => void;
  /** TCP/TLS connect timeout. Default 5000. */
  connectTimeoutMs?: number;
  /** Whole-request budget of a create (queueing, headers and body). Default 20000. */
  timeoutMs?: number;
  /**
   * Whole-request budget of a read. Default 12000: a user waits on it, and a read that timed out is
   * not retried (a hung provider would only make them wait three times as long).
   */
  readTimeoutMs?: number;
  /** Extra attempts for reads after `UpstreamUnavailable`. Default 2. */
  readRetries?: number;
  /** First backoff step; doubles per attempt, with jitter. Default 300. */
  retryBaseMs?: number;
  /** Clock for backoff sleeps. Default `systemClock`. */
  clock?: Clock;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /** Concurrent connections to the provider (politeness bound). Default UPSTREAM_CONNECTIONS. */
  maxConnections?: number;
  /** Where skipped price-list items are reported (they would otherwise vanish unseen). */
  logger?: { warn(obj: object, msg: string): void };
}

type Params = Record<string, string | number | undefined>;

/**
 * Connections to the provider at once, for every key together: a bound, as the provider asks for
 * (upstream notes). 32, not 16: a shop's burst of 1,000 paid orders is ~3,000 calls in a few seconds
 * (each order's deposit status, create, purchase status), and at 16 they queued for a connection
 * (bench/shop.ts: p95 3.3 s at 16, 2.8 s at 32, on the same quiet machine).
 */
export const UPSTREAM_CONNECTIONS = 32;

/** Largest body read (a full price list is well under this). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

class BodyTooLarge extends Error {}

export class UpstreamClient {
  private readonly agentOptions: Agent.Options;
  /** Made with the first call. */
  private agent?: Agent;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  private readonly readTimeoutMs: number;
  private readonly readRetries: number;
  private readonly retryBaseMs: number;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly logger: UpstreamClientOptions["logger"];
  private closed = false;

  constructor(private readonly opts: UpstreamClientOptions) {
    const url = new URL(opts.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.readTimeoutMs = opts.readTimeoutMs ?? Math.min(12_000, this.timeoutMs);
    this.readRetries = opts.readRetries ?? 2;
    this.retryBaseMs = opts.retryBaseMs ?? 300;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.logger = opts.logger;
    this.agentOptions = {
      connect: { timeout: opts.connectTimeoutMs ?? 5_000 },
      headersTimeout: Math.max(this.timeoutMs, this.readTimeoutMs),
      bodyTimeout: Math.max(this.timeoutMs, this.readTimeoutMs),
      // Below common server idle timeouts, so a create is not sent on a socket the server is
      // closing (undici never replays a POST, and the outcome would then be unknown).
      keepAliveTimeout: 4_000,
      connections: opts.maxConnections ?? UPSTREAM_CONNECTIONS,
    };
  }

  private pool(): Promise<Agent> {
    if (!this.agent) {
      this.agent = new Agent(this.agentOptions);
      // After close() a call fails as it did on the closed pool (ClientClosedError: a network failure).
      if (this.closed) void this.agent.close();
    }
    return Promise.resolve(this.agent);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.agent) await this.agent.close();
  }

  /**
   * close() without waiting: every call in flight ends now as a network failure (a create's outcome is then
   * unknown), and later calls (retries too) fail at once without going out. For a stop that cannot wait for a
   * slow provider.
   */
  async abortCalls(): Promise<void> {
    this.closed = true;
    if (this.agent) await this.agent.destroy();
  }

  // ------------------------------------------------------------------------------------------
  // Endpoints

  getProfile(apiKey: string): Promise<Profile> {
    return this.read(ENDPOINTS.profile, apiKey, {}, profileSchema);
  }

  async prepaidPriceList(apiKey: string, code?: string): Promise<PrepaidProduct[]> {
    return this.logSkipped("prabayar", await this.read(ENDPOINTS.priceList, apiKey, { type: "prabayar", code }, prepaidListSchema));
  }

  async postpaidPriceList(apiKey: string, code?: string): Promise<PostpaidProduct[]> {
    return this.logSkipped("pascabayar", await this.read(ENDPOINTS.priceList, apiKey, { type: "pascabayar", code }, postpaidListSchema));
  }

  /** Items left out of a list are logged by index, code and reason (never the api key). */
  private logSkipped<T extends object>(type: string, list: T, message = "price list items skipped"): T {
    const skipped = skippedItems(list);
    if (skipped.length > 0) this.logger?.warn({ type, skipped: skipped.slice(0, 20), count: skipped.length }, message);
    return list;
  }

  async createTransaction(
    apiKey: string,
    req: { code: string; reffId: string; target: string; limitPrice?: number },
  ): Promise<PrepaidTransaction> {
    if (req.limitPrice !== undefined) assertAmount("limitPrice", req.limitPrice);
    const params = { code: req.code, reff_id: req.reffId, target: req.target, limit_price: req.limitPrice };
    return this.create(ENDPOINTS.createTransaction, apiKey, params, prepaidTransactionSchema);
  }

  prepaidStatus(apiKey: string, id: string): Promise<PrepaidTransaction> {
    return this.read(ENDPOINTS.transactionStatus, apiKey, { id, type: "prabayar" }, prepaidTransactionSchema);
  }

  /** The postpaid status shape is undocumented: parsed leniently (see `billPaymentSchema`). */
  postpaidStatus(apiKey: string, id: string): Promise<BillPayment> {
    return this.read(ENDPOINTS.transactionStatus, apiKey, { id, type: "pascabayar" }, billPaymentSchema);
  }

  billInquiry(apiKey: string, req: { code: string; reffId: string; customerNo: string }): Promise<BillInquiry> {
    const params = { code: req.code, reff_id: req.reffId, customer_no: req.customerNo };
    return this.read(ENDPOINTS.billInquiry, apiKey, params, billInquirySchema);
  }

  /** Must reuse the `reffId` of the inquiry. */
  billPay(apiKey: string, req: { code: string; reffId: string; customerNo: string }): Promise<BillPayment> {
    const params = { code: req.code, reff_id: req.reffId, customer_no: req.customerNo };
    return this.create(ENDPOINTS.billPay, apiKey, params, billPaymentSchema);
  }

  async bankList(apiKey: string): Promise<Bank[]> {
    return this.logSkipped("bank list", await this.read(ENDPOINTS.bankList, apiKey, {}, bankListSchema), "list items skipped");
  }

  checkAccount(apiKey: string, req: { bankCode: string; accountNumber: string }): Promise<AccountCheck> {
    const params = { bank_code: req.bankCode, account_number: req.accountNumber };
    return this.read(ENDPOINTS.checkAccount, apiKey, params, accountCheckSchema);
  }

  async createTransfer(
    apiKey: string,
    req: {
      refId: string;
      bankCode: string;
      accountNumber: string;
      holderName: string;
      amount: number;
      email?: string;
      phone?: string;
      note?: string;
    },
  ): Promise<Transfer> {
    assertAmount("amount", req.amount);
    // `ref_id` with one f on this endpoint only.
    const params = {
      ref_id: req.refId,
      kode_bank: req.bankCode,
      nomor_akun: req.accountNumber,
      nama_pemilik: req.holderName,
      nominal: req.amount,
      email: req.email,
      phone: req.phone,
      note: req.note,
    };
    return this.create(ENDPOINTS.createTransfer, apiKey, params, transferSchema);
  }

  transferStatus(apiKey: string, id: string): Promise<Transfer> {
    return this.read(ENDPOINTS.transferStatus, apiKey, { id }, transferSchema);
  }

  /** The docs name the filter `metode`, their examples `method`: both are sent. */
  async depositMethods(apiKey: string, filter?: { type?: string; method?: string }): Promise<DepositMethod[]> {
    const params = { type: filter?.type, metode: filter?.method, method: filter?.method };
    return this.logSkipped("deposit methods", await this.read(ENDPOINTS.depositMethods, apiKey, params, depositMethodListSchema), "list items skipped");
  }

  async createDeposit(
    apiKey: string,
    req: { reffId: string; amount: number; type: string; method: string },
  ): Promise<Deposit> {
    assertAmount("amount", req.amount);
    const params = { reff_id: req.reffId, nominal: req.amount, type: req.type, metode: req.method, method: req.method };
    return this.create(ENDPOINTS.createDeposit, apiKey, params, depositSchema);
  }

  depositStatus(apiKey: string, id: string): Promise<Deposit> {
    return this.read(ENDPOINTS.depositStatus, apiKey, { id }, depositSchema);
  }

  cancelDeposit(apiKey: string, id: string): Promise<DepositCancel> {
    return this.read(ENDPOINTS.cancelDeposit, apiKey, { id }, depositCancelSchema);
  }

  /** `action: true` releases the funds (a create: fee charged, never retried); false only previews the fee. */
  instantDeposit(apiKey: string, req: { id: string; action: boolean }): Promise<InstantDeposit> {
    const params = { id: req.id, action: req.action ? "true" : "false" };
    return req.action
      ? this.create(ENDPOINTS.instantDeposit, apiKey, params, instantDepositSchema)
      : this.read(ENDPOINTS.instantDeposit, apiKey, params, instantDepositSchema);
  }

  // ------------------------------------------------------------------------------------------
  // Plumbing

  private async read<S extends z.ZodMiniType>(
    endpoint: EndpointPath,
    apiKey: string,
    params: Params,
    schema: S,
  ): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.observed(endpoint, async () =>
          decodeAnswer(await this.send(endpoint, apiKey, params, false), schema, {
            endpoint,
            create: false,
            secret: apiKey,
          }),
        );
      } catch (e) {
        if (!(e instanceof UpstreamUnavailable) || e.reason === "timeout" || attempt >= this.readRetries) throw e;
        await this.clock.sleep(this.backoffMs(attempt));
      }
    }
  }

  private async create<S extends z.ZodMiniType>(
    endpoint: EndpointPath,
    apiKey: string,
    params: Params,
    schema: S,
  ): Promise<z.output<S>> {
    return this.observed(endpoint, async () => {
      const answer = await this.send(endpoint, apiKey, params, true);
      return decodeAnswer(answer, schema, { endpoint, create: true, secret: apiKey });
    });
  }

  private async observed<T>(endpoint: EndpointPath, call: () => Promise<T>): Promise<T> {
    const onCall = this.opts.onCall;
    if (!onCall) return call();
    const t0 = performance.now();
    try {
      const result = await call();
      onCall(endpoint, "ok", (performance.now() - t0) / 1000);
      return result;
    } catch (e) {
      const outcome = e instanceof UpstreamUnavailable ? e.reason : e instanceof UpstreamError ? e.kind : "error";
      onCall(endpoint, outcome, (performance.now() - t0) / 1000);
      throw e;
    }
  }

  /** Equal jitter: half the exponential step fixed, half random. */
  private backoffMs(attempt: number): number {
    const step = this.retryBaseMs * 2 ** attempt;
    return Math.round(step / 2 + this.random() * (step / 2));
  }

  /** One POST; transport failures become `UpstreamUnavailable` without the raw error attached. */
  private async send(endpoint: EndpointPath, apiKey: string, params: Params, create: boolean): Promise<HttpAnswer> {
    const form = new URLSearchParams({ api_key: apiKey });
    for (const [k, v] of Object.entries(params)) if (v !== undefined) form.append(k, String(v));

    const controller = new AbortController();
    let timedOut = false;
    // Real time on purpose: this bounds a real socket, the injected clock only paces retries.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, create ? this.timeoutMs : this.readTimeoutMs);
    try {
      const res = await (await this.pool()).request({
        origin: this.origin,
        path: this.basePath + endpoint,
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          "user-agent": "ppob-reseller-bot",
        },
        body: form.toString(),
        signal: controller.signal,
      });
      const contentType = res.headers["content-type"];
      let text: string;
      try {
        text = await readCapped(res.body, MAX_BODY_BYTES);
      } catch (e) {
        if (e instanceof BodyTooLarge) {
          throw new UpstreamUnavailable(endpoint, "malformed", { outcomeUnknown: create, httpStatus: res.statusCode });
        }
        throw e;
      }
      return {
        status: res.statusCode,
        text,
        ...(contentType !== undefined && { contentType: String(contentType) }),
      };
    } catch (e) {
      if (e instanceof UpstreamUnavailable) throw e;
      const cause = summarize(e, apiKey);
      const reason = timedOut || (cause.code !== undefined && TIMEOUT_CODES.has(cause.code)) ? "timeout" : "network";
      throw new UpstreamUnavailable(endpoint, reason, { outcomeUnknown: create, cause });
    } finally {
      clearTimeout(timer);
    }
  }
}

async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Code and message of a transport error, with the key scrubbed (never the error object itself). */
function summarize(e: unknown, apiKey: string): TransportFailure {
  const err = e as { code?: unknown; message?: unknown; name?: unknown } | null;
  const code = typeof err?.code === "string" ? err.code : typeof err?.name === "string" ? err.name : undefined;
  const raw = typeof err?.message === "string" ? err.message : "transport error";
  const message = redactSecret(raw, apiKey).slice(0, 200);
  return code !== undefined ? { code: redactSecret(code, apiKey), message } : { message };
}

function assertAmount(name: string, v: number): void {
  // Rupiah amounts are whole; refuse before sending rather than let the provider round.
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a whole non-negative number`);
}
