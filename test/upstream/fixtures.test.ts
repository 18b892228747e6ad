/**
 * Every provider sample parses to exact typed values, both through the decoder alone and through
 * the client against a local server serving the sample.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as z from "../../src/tools/zod.js";
import { UpstreamClient } from "../../src/upstream/client.js";
import { decodeBody } from "../../src/upstream/decode.js";
import { ENDPOINTS } from "../../src/upstream/endpoints.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";
import { billInquirySchema, billPaymentSchema } from "../../src/upstream/schemas/bills.js";
import { depositCancelSchema, depositSchema, instantDepositSchema } from "../../src/upstream/schemas/deposits.js";
import { postpaidListSchema, prepaidListSchema } from "../../src/upstream/schemas/prices.js";
import { profileSchema } from "../../src/upstream/schemas/profile.js";
import { prepaidTransactionSchema } from "../../src/upstream/schemas/transactions.js";
import { accountCheckSchema, bankListSchema, transferSchema } from "../../src/upstream/schemas/transfers.js";
import { fixture, fixtureNames, startServer, wib, type TestServer } from "./server.js";

const KEY = "fixture-key-7d1e";

interface Case {
  endpoint: string;
  schema: z.ZodMiniType;
  create: boolean;
  call: (c: UpstreamClient) => Promise<unknown>;
  expected: unknown;
}

const CASES: Record<string, Case> = {
  "deposit_cancel__ok.json": {
    endpoint: ENDPOINTS.cancelDeposit,
    schema: depositCancelSchema,
    create: false,
    call: (c) => c.cancelDeposit(KEY, "xxxxxxxxxxxxxxxxx"),
    expected: { id: "xxxxxxxxxxxxxxxxx", status: "cancel", createdAt: wib("2023-12-26 13:16:19") },
  },
  "deposit_create__qris_docs.json": {
    endpoint: ENDPOINTS.createDeposit,
    schema: depositSchema,
    create: true,
    call: (c) => c.createDeposit(KEY, { reffId: "r1", amount: 50000, type: "ewallet", method: "qris" }),
    expected: {
      id: "xxxxxxxxxxxxxx",
      reffId: "xxxxxxxxxxxxx",
      amount: 50000,
      extra: 0,
      fee: 350,
      credited: 49650,
      status: "pending",
      createdAt: wib("2023-12-26 13:16:19"),
      expiresAt: wib("2023-12-26 14:16:19"),
      qrString: "xxxxxxxxxxxxxxxxxxxxx",
      qrImage: "https://atlantich2h.com/qr/xxxxxxxxxxxxxx",
    },
  },
  // An older answer shape: no fee, no get_balance. The QR must not be lost over them.
  "deposit_create__qris_no_fee.json": {
    endpoint: ENDPOINTS.createDeposit,
    schema: depositSchema,
    create: true,
    call: (c) => c.createDeposit(KEY, { reffId: "r1", amount: 50000, type: "ewallet", method: "qris" }),
    expected: {
      id: "DEP-OLD-1",
      reffId: "r1",
      amount: 50000,
      extra: 0,
      status: "pending",
      createdAt: wib("2023-12-26 13:16:19"),
      expiresAt: wib("2023-12-26 14:16:19"),
      qrString: "00020101021226590013ID.CO.QRIS.WWW",
    },
  },
  "deposit_instant__processing.json": {
    endpoint: ENDPOINTS.instantDeposit,
    schema: instantDepositSchema,
    create: true,
    call: (c) => c.instantDeposit(KEY, { id: "xxxxxxxxxxxxxxx", action: true }),
    expected: {
      id: "xxxxxxxxxxxxxxx",
      reffId: "xxxxxxxxxxxxxxx",
      amount: 25000,
      handlingFee: 361,
      totalFee: 1275,
      received: 23725,
      status: "processing",
      createdAt: wib("2023-12-26 14:55:45"),
    },
  },
  "deposit_status__success_ewallet.json": {
    endpoint: ENDPOINTS.depositStatus,
    schema: depositSchema,
    create: false,
    call: (c) => c.depositStatus(KEY, "xxxxxxxxxxxxxxx"),
    expected: {
      id: "xxxxxxxxxxxxxxx",
      reffId: "xxxxxxxxxxxxxxx",
      amount: 20000,
      extra: 0,
      fee: 300,
      credited: 19700,
      status: "success",
      method: "E-Wallet DANA",
      createdAt: wib("2024-02-13 14:25:22"),
      expiresAt: null,
    },
  },
  "get_profile__ok.json": {
    endpoint: ENDPOINTS.profile,
    schema: profileSchema,
    create: false,
    call: (c) => c.getProfile(KEY),
    expected: {
      name: "Nama Anda",
      username: "username anda",
      email: "Email anda",
      phone: "Nomer HP anda",
      balance: null,
      balanceText: "Saldo Anda",
      status: "active",
    },
  },
  "layanan_price_list__prabayar.json": {
    endpoint: ENDPOINTS.priceList,
    schema: prepaidListSchema,
    create: false,
    call: (c) => c.prepaidPriceList(KEY),
    expected: [
      {
        code: "PLN100",
        name: "PLN 100.000",
        category: "PLN",
        type: "Umum",
        provider: "PLN",
        price: 100113,
        note: "masukkan nomor meter/id pelanggan",
        available: true,
        imgUrl: "https://urlimage.png",
      },
      {
        code: "HOKW",
        name: "Honor of Kings Weekly Card",
        category: "Games",
        type: "Membership",
        provider: "Honor of Kings",
        price: 12325,
        note: "Honor of Kings Weekly Card",
        available: true,
        imgUrl: "https://urlimage.png",
      },
    ],
  },
  // One item with a non-numeric price and one without a code: skipped, the rest is the catalogue.
  "layanan_price_list__prabayar_one_bad.json": {
    endpoint: ENDPOINTS.priceList,
    schema: prepaidListSchema,
    create: false,
    call: (c) => c.prepaidPriceList(KEY),
    expected: [
      { code: "S10", name: "Telkomsel 10.000", category: "Pulsa", type: "Umum", provider: "TELKOMSEL", price: 10350, note: "", available: true },
      { code: "PLN20", name: "PLN 20.000", category: "PLN", type: "Umum", provider: "PLN", price: 20150, note: "masukkan nomor meter/id pelanggan", available: true },
    ],
  },
  // No admin / komisi (or words instead of a number): the fee is the one on the bill.
  "layanan_price_list__pascabayar_no_admin.json": {
    endpoint: ENDPOINTS.priceList,
    schema: postpaidListSchema,
    create: false,
    call: (c) => c.postpaidPriceList(KEY),
    expected: [
      { code: "PPLN", name: "PLN Pascabayar", type: "pln", category: "PLN", admin: null, commission: null, note: "", available: true },
      { code: "BPJS", name: "BPJS Kesehatan", type: "bpjs", category: "BPJS", admin: 2500, commission: 500, note: "", available: true },
      { code: "PDAM", name: "PDAM", type: "pdam", category: "PDAM", admin: null, commission: null, note: "", available: true },
    ],
  },
  "transaksi_create__failed.json": {
    endpoint: ENDPOINTS.createTransaction,
    schema: prepaidTransactionSchema,
    create: true,
    call: (c) => c.createTransaction(KEY, { code: "KODE1", reffId: "r2", target: "0856123456789" }),
    expected: new UpstreamRejected(ENDPOINTS.createTransaction, "Transaksi Gagal", 201),
  },
  "transaksi_create__pending.json": {
    endpoint: ENDPOINTS.createTransaction,
    schema: prepaidTransactionSchema,
    create: true,
    call: (c) => c.createTransaction(KEY, { code: "KODE1", reffId: "reffexample123", target: "0856123456789" }),
    expected: {
      id: "xxxxxxxxxxxxxxxxx",
      reffId: "reffexample123",
      productName: "Data 1 GB / 30 Hari",
      code: "KODE1",
      target: "0856123456789",
      price: 58507,
      sn: null,
      status: "pending",
      createdAt: wib("2023-12-26 11:08:19"),
    },
  },
  "transaksi_status__success_prabayar.json": {
    endpoint: ENDPOINTS.transactionStatus,
    schema: prepaidTransactionSchema,
    create: false,
    call: (c) => c.prepaidStatus(KEY, "xxxxxxxxxxxxxxxxxx"),
    expected: {
      id: "xxxxxxxxxxxxxxxxxx",
      reffId: "xxxxxxxxxxxxxxx",
      productName: "Data 10 GB / 30 Hari",
      code: "KODE1",
      target: "0856123456789",
      price: 58507,
      sn: "xxxxxxxxxxxx",
      status: "success",
      createdAt: wib("2023-12-26 11:00:20"),
    },
  },
  "transaksi_tagihan__pln.json": {
    endpoint: ENDPOINTS.billInquiry,
    schema: billInquirySchema,
    create: false,
    call: (c) => c.billInquiry(KEY, { code: "PPLN", reffId: "938293782920303809", customerNo: "1234567890123" }),
    expected: {
      reffId: "938293782920303809",
      customerNo: "1234567890123",
      customerName: "USER123",
      code: "PPLN",
      price: 101099,
      adminFee: 2750,
      total: 102236,
      tariff: "B1",
      power: 900,
      sheets: 1,
      periods: [{ period: "202403", amount: 99486, admin: 2750, penalty: 0 }],
    },
  },
  "transaksi_tagihan_bayar__success.json": {
    endpoint: ENDPOINTS.billPay,
    schema: billPaymentSchema,
    create: true,
    call: (c) => c.billPay(KEY, { code: "PPLN", reffId: "12912812918291212", customerNo: "1234567890123" }),
    expected: {
      reffId: "12912812918291212",
      customerNo: "1234567890123",
      customerName: "USER123",
      code: "PPLN",
      price: 125000,
      sn: "xxxxxxx",
      status: "success",
      createdAt: wib("2024-02-21 12:29:00"),
    },
  },
  "transfer_bank_list__ok.json": {
    endpoint: ENDPOINTS.bankList,
    schema: bankListSchema,
    create: false,
    call: (c) => c.bankList(KEY),
    expected: [
      { id: "1", code: "mandiri", name: "Bank Mandiri", type: "bank" },
      { id: "166", code: "bpd_kaltim", name: "Bank BPD Kaltim", type: "bank" },
      { id: "167", code: "jago_syariah", name: "Bank Jago Syariah", type: "bank" },
    ],
  },
  "transfer_cek_rekening__valid.json": {
    endpoint: ENDPOINTS.checkAccount,
    schema: accountCheckSchema,
    create: false,
    call: (c) => c.checkAccount(KEY, { bankCode: "ovo", accountNumber: "0811222221" }),
    expected: { bankCode: "ovo", accountNumber: "0811222221", holderName: "DHXXX AKXX HEXXXXXX", status: "valid" },
  },
  "transfer_create__pending.json": {
    endpoint: ENDPOINTS.createTransfer,
    schema: transferSchema,
    create: true,
    call: (c) =>
      c.createTransfer(KEY, {
        refId: "kXXX1",
        bankCode: "ovo",
        accountNumber: "081322207701",
        holderName: "DHXXXXXXAWAN",
        amount: 10000,
      }),
    expected: {
      id: "NnTo8NXXXXXyhjEUhZ",
      reffId: "kXXX1",
      holderName: "DHXXXXXXAWAN",
      accountNumber: "081322207701",
      amount: 10000,
      fee: 2000,
      total: 12000,
      status: "pending",
      email: "hai@atlantic-pedia.co.id",
      phone: "08884144444",
      note: "Withdraw Saldo ID 29029",
      createdAt: wib("2023-11-17 09:45:41"),
    },
  },
  "transfer_status__success.json": {
    endpoint: ENDPOINTS.transferStatus,
    schema: transferSchema,
    create: false,
    call: (c) => c.transferStatus(KEY, "xxxxxxxxxxxxxxxxxxxxxxxx"),
    expected: {
      id: "xxxxxxxxxxxxxxxxxxxxxxxx",
      reffId: "xxxxxxxxxxxxxxxxx",
      holderName: "DHIFO AKSA HERMAWAN",
      accountNumber: "xxxxxxxx",
      amount: 20000,
      fee: 2000,
      total: 22000,
      status: "success",
      bankCode: "bca",
      createdAt: wib("2023-12-19 10:35:42"),
    },
  },
};

/** Compares a thrown error by class and own fields (not identity). */
function expectSameError(actual: unknown, expected: Error): void {
  expect(actual).toBeInstanceOf(expected.constructor);
  expect({ ...(actual as object), message: (actual as Error).message }).toEqual({
    ...expected,
    message: expected.message,
  });
}

describe("upstream samples", () => {
  it("has a case for every fixture file (and no case without a file)", () => {
    expect(Object.keys(CASES).sort()).toEqual(fixtureNames());
  });

  describe("decode", () => {
    for (const [file, c] of Object.entries(CASES)) {
      it(file, () => {
        const run = () => decodeBody(fixture(file), c.schema, { endpoint: c.endpoint, create: c.create });
        if (c.expected instanceof Error) {
          let thrown: unknown;
          try {
            run();
          } catch (e) {
            thrown = e;
          }
          expectSameError(thrown, c.expected);
        } else {
          expect(run()).toStrictEqual(c.expected);
        }
      });
    }
  });

  describe("client against a server replaying the sample", () => {
    let server: TestServer;
    let client: UpstreamClient;
    let current: { file: string; endpoint: string } = { file: "", endpoint: "" };

    beforeAll(async () => {
      server = await startServer((hit) =>
        hit.path === current.endpoint ? { json: fixture(current.file) } : { status: 404, body: "not found" },
      );
      client = new UpstreamClient({ baseUrl: server.url, readRetries: 0 });
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    it("logs each skipped price-list item with its index, code and reason, never the key", async () => {
      const warnings: { obj: object; msg: string }[] = [];
      const logged = new UpstreamClient({ baseUrl: server.url, readRetries: 0, logger: { warn: (obj, msg) => warnings.push({ obj, msg }) } });
      current = { file: "layanan_price_list__prabayar_one_bad.json", endpoint: ENDPOINTS.priceList };
      expect((await logged.prepaidPriceList(KEY)).map((p) => p.code)).toEqual(["S10", "PLN20"]);
      await logged.close();
      expect(warnings).toEqual([
        {
          msg: "price list items skipped",
          obj: {
            type: "prabayar",
            count: 2,
            skipped: [
              { index: 1, code: "S25", problem: "price: expected a numeric amount" },
              { index: 2, problem: "code: expected a non-empty identifier" },
            ],
          },
        },
      ]);
      expect(JSON.stringify(warnings)).not.toContain(KEY);
    });

    for (const [file, c] of Object.entries(CASES)) {
      it(file, async () => {
        current = { file, endpoint: c.endpoint };
        const before = server.hits.length;
        const result = c.call(client);
        if (c.expected instanceof Error) {
          let thrown: unknown;
          await result.catch((e: unknown) => (thrown = e));
          expectSameError(thrown, c.expected);
        } else {
          expect(await result).toStrictEqual(c.expected);
        }
        expect(server.hits.length - before).toBe(1);
        expect(server.hits.at(-1)?.form.api_key).toBe(KEY);
      });
    }
  });
});
