/** Which refusals are read as the account's balance being too low (the provider's body is not public). */
import { expect, it } from "vitest";
import { isLowBalanceRefusal, UpstreamRejected } from "../../src/upstream/errors.js";

const refused = (message: string, code?: number) => new UpstreamRejected("/transaksi/create", message, code);

it("reads the balance refusal by its code or its words, and nothing else", () => {
  expect(isLowBalanceRefusal(refused("Saldo tidak mencukupi", 402))).toBe(true);
  expect(isLowBalanceRefusal(refused("Gagal", 402))).toBe(true);
  expect(isLowBalanceRefusal(refused("Saldo tidak cukup"))).toBe(true);
  expect(isLowBalanceRefusal(refused("Saldo Anda kurang"))).toBe(true);
  expect(isLowBalanceRefusal(refused("Insufficient balance"))).toBe(true);
  expect(isLowBalanceRefusal(refused("Transaksi Gagal", 201))).toBe(false);
  expect(isLowBalanceRefusal(refused("Transaksi gagal, nomor tujuan tidak aktif. Saldo dikembalikan"))).toBe(false);
  expect(isLowBalanceRefusal(refused("Produk sedang gangguan"))).toBe(false);
});
