/** Staff and downlines have a PIN of their own; a lock is told to their upline, who resets it (issue 39). */
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "../staff/support.js";
import { fund, joinAs } from "../network/support.js";
import { expectPinNowhere, setPin, typePin } from "./support.js";
import { AuditKind } from "../../src/domain/audit.js";

const PIN = "739164";
const OWN = "482915";

describe("a member's own PIN", () => {
  let w: World;
  afterEach(() => w?.close());

  it("a downline's /tarik asks its own PIN; 5 wrong lock it and tell it and its upline; the upline resets it behind its own PIN", async () => {
    w = await makeWorld();
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    // Something to withdraw: an empty wallet is told so before any PIN.
    await fund(w, rina, "Andi", 50_000);
    await setPin(rina, PIN);
    await setPin(andi, OWN);
    expect(andi.replies().join("\n")).toContain("PIN tersimpan. Lupa PIN? Minta upline Anda meresetnya");

    await andi.sendCommand("tarik");
    expect(andi.lastReply()).toContain("Masukkan PIN untuk: Tarik saldo dompet");
    // Rina's PIN is not Andi's.
    await typePin(andi, PIN);
    expect(andi.lastReply()).toContain("PIN salah");
    await typePin(andi, OWN);
    expect(andi.lastReply()).toContain("Pilih bank atau e-wallet tujuan");
    await andi.sendCommand("batal");

    await andi.sendCommand("tarik");
    for (let i = 0; i < 5; i++) await typePin(andi, "111222");
    expect(andi.lastReply()).toContain("PIN salah 5 kali");
    expect(rina.lastReply()).toContain("Andi salah memasukkan PIN 5 kali");
    const banksShown = andi.replies().filter((r) => r.includes("Pilih bank")).length;
    await andi.sendCommand("tarik");
    expect(andi.lastReply()).toContain("PIN salah 5 kali");
    expect(andi.replies().filter((r) => r.includes("Pilih bank")).length).toBe(banksShown);

    await rina.sendCommand("downline");
    await rina.pressButton(/Andi$/);
    await rina.pressButton(/Reset PIN/);
    expect(rina.lastReply()).toContain("Masukkan PIN untuk: Reset PIN anggota");
    await typePin(rina, PIN);
    expect(rina.lastReply()).toContain("PIN Andi dihapus");
    expect(andi.lastReply()).toContain("Upline Anda menghapus PIN Anda");
    const log = await w.store.listLog(AuditKind, rina.chatId, { limit: 500 });
    expect(log.filter((e) => e.entry.act === "pin_reset").map((e) => e.entry.before)).toEqual([`Andi (${andi.chatId})`]);
    await andi.sendCommand("tarik");
    expect(andi.lastReply()).toContain("Pilih bank atau e-wallet tujuan");
  });

  it("a staff member sets a PIN with /pin; the owner resets it from the staff card", async () => {
    w = await makeWorld();
    const { rina, dewi } = await ownerAndStaff(w);
    // A cashier has no withdrawal or invitation of her own, and her upline is the owner: the texts say so.
    await dewi.sendCommand("pin");
    expect(dewi.lastReply()).toContain("PIN transaksi Anda sendiri");
    expect(dewi.lastReply()).not.toMatch(/penarikan dan undangan Anda|upline/);
    await typePin(dewi, OWN);
    await typePin(dewi, OWN);
    expect(dewi.replies().join("\n")).toContain("Lupa PIN? Minta pemilik meresetnya.");
    await dewi.sendCommand("pin");
    expect(dewi.lastReply()).toContain("Lupa PIN? Minta pemilik meresetnya.");
    expect(await w.app.deps.pins.isSet(dewi.chatId)).toBe(true);
    await expectPinNowhere(w, OWN);
    await rina.sendCommand("staf");
    await rina.pressButton(/Dewi/);
    await rina.pressButton(/Reset PIN/);
    expect(rina.lastReply()).toContain("PIN Dewi dihapus");
    expect(dewi.lastReply()).toContain("Pemilik menghapus PIN Anda");
    expect(await w.app.deps.pins.isSet(dewi.chatId)).toBe(false);
  });

  it("an inviting downline's invitation asks its own PIN", async () => {
    w = await makeWorld();
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    await rina.sendCommand("downline");
    await rina.pressButton(/Andi$/);
    await rina.pressButton(/Boleh mengundang/);
    await setPin(andi, OWN);
    await andi.sendCommand("downline");
    await andi.pressButton(/Undang downline/);
    expect(andi.lastReply()).toContain("Masukkan PIN untuk: Undang downline");
    expect(andi.replies().join("\n")).not.toMatch(/start=dl_/);
    await typePin(andi, OWN);
    expect(andi.replies().join("\n")).toMatch(/start=dl_/);
  });
});
