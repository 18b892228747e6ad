/**
 * POST /h2h/<the provider's paths>: the provider's API served to a downline's own system (docs/h2h.md).
 * Each call: a bounded body, the key (401), the downline still a member and not suspended, the caller
 * IP listed (403), the key's limits (429), then the endpoint. Answers are the provider's envelope;
 * nothing unexpected is answered with its detail. The key is never logged.
 */
import type { IncomingMessage } from "node:http";
import { Hono, type Context } from "hono";
import type { H2hAccess } from "../../domain/h2hAccess.js";
import { normalIp } from "../../domain/h2hAccess.js";
import type { Network } from "../../domain/network.js";
import type { Logger } from "../../logging/logger.js";
import type { H2hSales, H2hSeller } from "../../money/h2hSales.js";
import type { H2hDeposits } from "../../money/h2hDeposits.js";
import type { H2hPayouts } from "../../money/h2hPayouts.js";
import type { Wallets } from "../../money/wallets.js";
import type { Store } from "../../store/index.js";
import type { Clock } from "../../tools/clock.js";
import type { ListCache } from "../../upstream/cache.js";
import type { UpstreamClient } from "../../upstream/client.js";
import { ENDPOINTS } from "../../upstream/endpoints.js";
import { sizeLimit } from "../bodySize.js";
import { accountCheckData, bankEntry, depositCancelData, depositData, depositMethodEntry, inquiryData, ok, paymentData, postpaidEntry, prepaidData, prepaidEntry, profileAnswer, refusal, transferData } from "./answers.js";
import { callerIp, KeyLimits } from "./limits.js";
import { checked, type Params, ParamError, parseForm } from "./params.js";

export const H2H_MAX_BODY_BYTES = 16 * 1024;

export interface H2hRouteDeps {
  access: H2hAccess;
  sales: H2hSales;
  deposits: H2hDeposits;
  payouts: H2hPayouts;
  store: Store;
  network: Network;
  wallets: Wallets;
  upstream: UpstreamClient;
  lists: ListCache;
  clock: Clock;
  logger: Logger;
  /** Proxies in front of the bot whose X-Forwarded-For is trusted (TRUST_PROXY); 0: the socket's address. */
  trustProxy: number;
  limits?: KeyLimits;
}

type Answer = { status: number; body: unknown };
type Handler = (seller: H2hSeller & { name: string }, p: Params) => Promise<Answer>;

const json = (body: unknown, status = 200): Answer => ({ status, body });

export function h2hRoutes(deps: H2hRouteDeps): Hono {
  const { access, sales, deposits, payouts, store, network, wallets, upstream, lists, logger } = deps;
  const limits = deps.limits ?? new KeyLimits(deps.clock);
  const answerOf = (r: { refused: true; message: string; code: number }) => json(refusal(r.message, r.code));

  const routes: Record<string, Handler> = {
    [ENDPOINTS.profile]: async (s) => json(profileAnswer(s.name, s.chat, (await wallets.view(s.chat)).available)),

    [ENDPOINTS.priceList]: async (s, p) => {
      const { type, code } = checked(p, { type: "type" }, { code: "code" });
      const wanted = <T extends { code: string }>(list: T[]) => (code ? list.filter((x) => x.code.toLowerCase() === code.toLowerCase()) : list);
      if (type === "prabayar") {
        const list = await sales.prepaidList(s);
        if ("refused" in list) return answerOf(list);
        const shown = wanted(list);
        return code && shown.length === 0 ? json(refusal("Layanan tidak ditemukan", 404)) : json(ok(shown.map(prepaidEntry)));
      }
      const list = await sales.postpaidList(s);
      if ("refused" in list) return answerOf(list);
      const shown = wanted(list);
      return code && shown.length === 0 ? json(refusal("Layanan tidak ditemukan", 404)) : json(ok(shown.map(postpaidEntry)));
    },

    [ENDPOINTS.createTransaction]: async (s, p) => {
      const q = checked(p, { code: "code", reff_id: "ref", target: "target" }, { limit_price: "amount" });
      const limitPrice = q.limit_price === undefined ? undefined : Number(q.limit_price);
      const r = await sales.buy(s, { code: q.code, reffId: q.reff_id, target: q.target, ...(limitPrice !== undefined ? { limitPrice } : {}) });
      return r.refused ? answerOf(r) : json({ status: true, message: "Transaksi diproses", data: prepaidData(r.tx), code: 202 });
    },

    [ENDPOINTS.transactionStatus]: async (s, p) => {
      const q = checked(p, { id: "ref", type: "type" });
      const tx = await sales.find(s, q.type === "prabayar" ? "prepaid" : "postpaid", q.id);
      if (!tx) return json(refusal("Transaksi tidak ditemukan", 404));
      return json(ok(q.type === "prabayar" ? prepaidData(tx) : paymentData(tx)));
    },

    [ENDPOINTS.billInquiry]: async (s, p) => {
      const q = checked(p, { code: "code", reff_id: "ref", customer_no: "target" });
      const r = await sales.inquire(s, { code: q.code, reffId: q.reff_id, customerNo: q.customer_no });
      return r.refused ? answerOf(r) : json(ok(inquiryData(r.tx)));
    },

    [ENDPOINTS.billPay]: async (s, p) => {
      const q = checked(p, { code: "code", reff_id: "ref", customer_no: "target" });
      const r = await sales.pay(s, { code: q.code, reffId: q.reff_id, customerNo: q.customer_no });
      return r.refused ? answerOf(r) : json(ok(paymentData(r.tx)));
    },

    [ENDPOINTS.bankList]: async (s) => {
      const banks = await sales.read(s, (key) => lists.banks(key));
      return "refused" in banks ? answerOf(banks) : json({ status: "true", message: "Data retrieved successfully", data: banks.map(bankEntry) });
    },

    [ENDPOINTS.checkAccount]: async (s, p) => {
      const q = checked(p, { bank_code: "code", account_number: "target" });
      const r = await sales.read(s, (key) => upstream.checkAccount(key, { bankCode: q.bank_code, accountNumber: q.account_number }));
      return "refused" in r ? answerOf(r) : json({ status: true, data: accountCheckData(r) });
    },

    // A QRIS top-up of the wallet, made with the owner's key (docs/h2h.md "Deposits").
    [ENDPOINTS.createDeposit]: async (s, p) => {
      const q = checked(p, { reff_id: "ref", nominal: "amount", type: "code" }, { metode: "code", method: "code" });
      const r = await deposits.create(s, { reffId: q.reff_id, amount: Number(q.nominal), type: q.type, method: q.metode ?? q.method ?? "" });
      return r.refused ? answerOf(r) : json(ok(depositData(r.tx)));
    },
    [ENDPOINTS.depositStatus]: async (s, p) => {
      const tx = await deposits.find(s, checked(p, { id: "ref" }).id);
      return tx ? json(ok(depositData(tx))) : json(refusal("Deposit tidak ditemukan", 404));
    },
    [ENDPOINTS.cancelDeposit]: async (s, p) => {
      const r = await deposits.cancel(s, checked(p, { id: "ref" }).id);
      return r.refused ? answerOf(r) : json(ok(depositCancelData(r.tx)));
    },
    // The release spends the owner's handling fee: never on a downline's call.
    [ENDPOINTS.instantDeposit]: () => Promise.resolve(json(refusal("Pencairan instan tidak tersedia lewat H2H", 403))),

    // A payout request, pending until the owner confirms it in Telegram (docs/h2h.md "Transfers").
    [ENDPOINTS.createTransfer]: async (s, p) => {
      const q = checked(p, { ref_id: "ref", kode_bank: "code", nomor_akun: "target", nama_pemilik: "text", nominal: "amount" }, { note: "text" });
      const r = await payouts.create(s, { refId: q.ref_id, bankCode: q.kode_bank, accountNumber: q.nomor_akun, holderName: q.nama_pemilik, amount: Number(q.nominal), note: q.note ?? "" });
      return r.refused ? answerOf(r) : json({ status: true, message: "Data berhasil diproses", data: transferData(r.tx, false), code: 200 });
    },
    [ENDPOINTS.transferStatus]: async (s, p) => {
      const tx = await payouts.find(s, checked(p, { id: "ref" }).id);
      return tx ? json(ok(transferData(tx, true))) : json(refusal("Transfer tidak ditemukan", 404));
    },
    // What H2H serves of the owner's methods: QRIS only (docs/h2h.md "Deposits").
    [ENDPOINTS.depositMethods]: async (s, p) => {
      const q = checked(p, {}, { type: "code", metode: "code", method: "code" });
      const methods = await sales.read(s, (key) => lists.depositMethods(key));
      if ("refused" in methods) return answerOf(methods);
      const wanted = q.metode ?? q.method;
      const shown = methods.filter(
        (m) => m.method.toLowerCase() === "qris" && (!q.type || m.type.toLowerCase() === q.type.toLowerCase()) && (!wanted || m.method.toLowerCase() === wanted.toLowerCase()),
      );
      return json({ status: true, message: "Data retrieved successfully", data: shown.map(depositMethodEntry), code: 200 });
    },
  };

  /** The downline behind a key, or the answer that refuses the call. */
  async function admit(c: Context, p: Params): Promise<{ seller: H2hSeller & { name: string } } | Answer> {
    const caller = await access.authenticate(p.api_key ?? "");
    if (!caller) return json(refusal("Api key tidak valid atau tidak ditemukan", 401), 401);
    // Read now, as every Telegram update reads it: a removal or suspension counts from this call.
    const record = await store.getChat(caller.chat);
    const of = record?.downlineOf;
    if (of?.owner !== caller.owner) return json(refusal("Api key tidak valid atau tidak ditemukan", 401), 401);
    if (of.suspended) return json(refusal("Akses ditolak: akun downline sedang ditangguhkan upline", 403), 403);
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const ip = callerIp(incoming?.socket.remoteAddress, c.req.header("x-forwarded-for"), deps.trustProxy);
    const normal = normalIp(ip);
    if (normal === undefined || !caller.ips.includes(normal)) {
      return json(refusal(`Akses ditolak: IP ${ip.slice(0, 45)} tidak terdaftar di whitelist api key ini`, 403), 403);
    }
    const name = (await network.member(caller.owner, caller.chat))?.name ?? String(caller.chat);
    return { seller: { chat: caller.chat, owner: caller.owner, level: of.level, name } };
  }

  async function serve(c: Context, path: string): Promise<Answer> {
    const route = routes[path];
    if (!route) return json(refusal("Endpoint tidak ditemukan", 404), 404);
    let params: Params;
    try {
      params = parseForm(await c.req.text());
    } catch {
      return json(refusal("Format request tidak valid", 400), 400);
    }
    const admitted = await admit(c, params);
    if (!("seller" in admitted)) return admitted;
    const release = limits.enter(admitted.seller.chat);
    if (!release) return json(refusal("Terlalu banyak permintaan, coba lagi sebentar lagi", 429), 429);
    try {
      return await route(admitted.seller, params);
    } catch (err) {
      if (err instanceof ParamError) return json(refusal(err.message, 400), 400);
      throw err;
    } finally {
      release();
    }
  }

  const app = new Hono();
  app.use(sizeLimit({ maxSize: H2H_MAX_BODY_BYTES, onError: (c) => c.json(refusal("Request terlalu besar", 413), 413) }));
  app.all("/*", async (c) => {
    const path = c.req.path.replace(/^\/h2h/, "").replace(/\/+$/, "");
    if (c.req.method !== "POST") return c.json(refusal("Method Not Allowed", 405), 405, { allow: "POST" });
    try {
      const a = await serve(c, path);
      return c.json(a.body, a.status as 200);
    } catch (err) {
      // No detail out; the key is not in the error (never put in one).
      logger.error({ err, path: `/h2h${path.slice(0, 60)}` }, "h2h call failed");
      return c.json(refusal("Terjadi kesalahan, coba lagi", 500), 500);
    }
  });
  return app;
}
