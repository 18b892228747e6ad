/**
 * A staff member's purchase is told to that person (its confirm screen and receipt are in that chat),
 * and to the owner too only when the owner chose so in /staf.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, run } from "../jobs/support.js";
import { ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

async function cashierSale(dewi: Awaited<ReturnType<typeof ownerAndStaff>>["dewi"]): Promise<void> {
  await dewi.sendCommand("beli", "S10");
  await dewi.sendText("081234567890");
  await dewi.pressButton(/Konfirmasi/);
}

it("the outcome goes to the cashier who sold, its confirm screen edited in its chat; not to the owner by default", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  await cashierSale(dewi);
  const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
  expect(tx!.status).toBe("pending");
  await run(w, 10_000);
  expect((await w.store.getTx(tx!.refId))!.status).toBe("success");
  expect(noticesAbout(w, dewi.chatId, tx!.refId).join("\n")).toContain("Transaksi berhasil");
  expect(w.fake.message(dewi.chatId, tx!.messageId!)!.text).toContain("Berhasil");
  expect(noticesAbout(w, rina.chatId, tx!.refId)).toEqual([]);
});

it("a cashier's notice and receipt show the selling price, never the owner's cost or profit", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("markup", "2000");
  await cashierSale(dewi);
  const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
  await run(w, 10_000);
  const told = [...noticesAbout(w, dewi.chatId, tx!.refId), w.fake.message(dewi.chatId, tx!.messageId!)!.text].join("\n");
  expect(told).toContain("Berhasil");
  expect(told).not.toMatch(/modal|Untung/i);
  await dewi.sendCommand("riwayat");
  await dewi.pressButton("1");
  expect(dewi.lastReply()).not.toMatch(/modal|Untung/i);
});

it("the owner who chose it gets a copy of each staff sale's outcome", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("staf");
  await rina.pressButton(/Notifikasi penjualan staf/);
  await cashierSale(dewi);
  const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
  await run(w, 10_000);
  expect(noticesAbout(w, dewi.chatId, tx!.refId).join("\n")).toContain("Transaksi berhasil");
  expect(noticesAbout(w, rina.chatId, tx!.refId).join("\n")).toContain("Transaksi berhasil");
});

it("a failed sale tells the cashier the customer is not charged, not that 'your balance' came back; the owner's copy keeps the balance sentence", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("staf");
  await rina.pressButton(/Notifikasi penjualan staf/);
  await dewi.sendCommand("beli", "S10 081200000000"); // the sandbox fails this number, "Saldo dikembalikan"
  await dewi.pressButton(/Konfirmasi/);
  const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
  await run(w, 10_000);
  expect((await w.store.getTx(tx!.refId))!.status).toBe("failed");
  const toDewi = [...noticesAbout(w, dewi.chatId, tx!.refId), w.fake.message(dewi.chatId, tx!.messageId!)!.text].join("\n");
  expect(toDewi).toContain("Penjualan gagal; pelanggan tidak dikenai biaya");
  expect(toDewi).toContain("kembalikan uangnya atau coba nomor lain");
  expect(toDewi).not.toContain("saldo Anda");
  expect(noticesAbout(w, rina.chatId, tx!.refId).join("\n")).toContain("saldo Anda sudah dikembalikan");
});

it("in English too: the cashier reads that the customer is not charged", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  await dewi.sendCommand("bahasa");
  await dewi.pressButton(/English/);
  await dewi.sendCommand("topup", "S10 081200000000");
  await dewi.pressButton(/Confirm/);
  const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
  await run(w, 10_000);
  const toDewi = noticesAbout(w, dewi.chatId, tx!.refId).join("\n");
  expect(toDewi).toContain("The sale failed; the customer is not charged");
  expect(toDewi).not.toContain("your balance");
});
