/**
 * The balance a staff member sells from is the owner's: too little of it is told as the owner's, with
 * no Deposit button (the owner's alone), and a cashier the owner shows no cost to reads no figures.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

const CREATE = "/transaksi/create";

it("a cashier who may not see cost, on a low owner balance: no figures, ask the owner, no Deposit button", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w);
  w.sandbox.setBalance(w.demoKey, 1_000);
  await dewi.sendCommand("beli", "S10 081234567890");
  const said = dewi.lastReply()!;
  expect(said).toContain("Saldo pemilik tidak cukup untuk penjualan ini; hubungi pemilik toko.");
  expect(said).not.toMatch(/Rp/);
  expect(said).not.toContain("Deposit");
  expect(dewi.buttons()).toEqual(["🏠 Menu"]);
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
});

it("a cashier paying a bill on a low owner balance reads no figures either", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w);
  w.sandbox.setBalance(w.demoKey, 1_000);
  await dewi.sendCommand("tagihan");
  await dewi.pressButton("PLN Pascabayar");
  await dewi.sendText("530112340002");
  expect(dewi.lastReply()).toContain("Saldo pemilik tidak cukup");
  expect(dewi.lastReply()).not.toMatch(/Rp/);
  expect(dewi.buttons()).toEqual(["🏠 Menu"]);
});

it("a shop admin (who may read /saldo) sees the figures as the owner's balance, and is sent to the owner, not to Deposit", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w, "admin");
  w.sandbox.setBalance(w.demoKey, 1_000);
  await dewi.sendCommand("beli", "S10 081234567890");
  const said = dewi.lastReply()!;
  expect(said).toContain("Saldo pemilik tidak cukup");
  expect(said).toContain("Rp1.000");
  expect(said).toMatch(/hubungi pemilik toko/i);
  expect(said).not.toContain("Deposit");
  expect(dewi.buttons()).toEqual(["🏠 Menu"]);
});

it("the owner still sees the figures and the Deposit button", async () => {
  w = await makeWorld();
  const { rina } = await ownerAndStaff(w);
  w.sandbox.setBalance(w.demoKey, 1_000);
  await rina.sendCommand("beli", "S10 081234567890");
  expect(rina.lastReply()).toContain("Saldo tidak cukup");
  expect(rina.lastReply()).toContain("saldo Anda Rp1.000");
  expect(rina.buttons()).toEqual(["🏦 Deposit", "🏠 Menu"]);
});

it("a bill the provider refuses for the owner's balance: the cashier is sent to the owner, with no figures and no /deposit", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w);
  await dewi.sendCommand("tagihan");
  await dewi.pressButton("PLN Pascabayar");
  await dewi.sendText("530112340002");
  w.sandbox.setBalance(w.demoKey, 1_000); // spent meanwhile: the screen had read enough
  await dewi.pressButton(/Konfirmasi/);
  const said = dewi.lastReply()!;
  expect(said).toContain("Saldo pemilik tidak cukup");
  expect(said).not.toMatch(/Rp/);
  expect(said).not.toContain("/deposit");
});

it("a price rise the provider refuses: the cashier who may not see cost reads no cost figures", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w);
  await dewi.sendCommand("beli", "S10 081234567890");
  w.sandbox.setPrice("S10", 10_900);
  await dewi.pressButton(/Konfirmasi/);
  const said = dewi.lastReply()!;
  expect(said).toContain("Harga produk ini baru saja berubah");
  expect(said).not.toContain("10.900");
  expect(said).not.toContain("10.500");
});
