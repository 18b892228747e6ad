/** Changing a staff role and a downline's level, suspension, removal and right to invite ask the owner's PIN and are told apart (issue 39). */
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "../staff/support.js";
import { joinAs } from "../network/support.js";
import { setPin, typePin } from "./support.js";

const PIN = "739164";

describe("roles behind the PIN", () => {
  let w: World;
  afterEach(() => w?.close());

  it("a staff role change shows the keypad; a wrong PIN changes nothing, the right one changes it and tells the owner apart", async () => {
    w = await makeWorld();
    const { rina, dewi } = await ownerAndStaff(w);
    await setPin(rina, PIN);
    await rina.sendCommand("staf");
    await rina.pressButton(/Dewi/);
    await rina.pressButton(/Jadikan admin toko/);
    expect(rina.lastReply()).toContain("Masukkan PIN untuk: Ubah peran staf");
    await typePin(rina, "111222");
    expect(dewi.replies().join("\n")).not.toContain("Peran Anda diganti");
    await typePin(rina, PIN);
    expect(dewi.lastReply()).toContain("Peran Anda diganti menjadi admin toko");
    const told = rina.messages().find((m) => m.text?.includes("Peran staf Dewi diganti menjadi admin toko"));
    expect(told?.text).toContain("Bukan saya");
  });

  it("a downline's level, suspension, right to invite and removal each ask the PIN and are told apart", async () => {
    w = await makeWorld();
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    await setPin(rina, PIN);
    const card = async () => {
      await rina.sendCommand("downline");
      await rina.pressButton(/Andi$/);
    };
    const told = (text: string) => rina.messages().filter((m) => m.text?.includes(text) && m.text.includes("Bukan saya")).length;

    await card();
    await rina.pressButton(/Jadikan Platinum/);
    expect(rina.lastReply()).toContain("Masukkan PIN untuk: Ubah downline");
    expect(andi.replies().join("\n")).not.toContain("Level Anda sekarang");
    await typePin(rina, PIN);
    expect(andi.lastReply()).toContain("Level Anda sekarang Platinum");
    expect(told("Downline Andi: level menjadi Platinum")).toBe(1);

    await card();
    await rina.pressButton(/Hentikan/);
    expect(rina.lastReply()).toContain("Ubah downline");
    await typePin(rina, PIN);
    expect(told("Downline Andi: dihentikan")).toBe(1);

    await card();
    await rina.pressButton(/Boleh mengundang/);
    expect(rina.lastReply()).toContain("Ubah downline");
    await typePin(rina, PIN);
    expect(told("Downline Andi: boleh mengundang")).toBe(1);

    await card();
    await rina.pressButton(/Hapus/);
    expect(rina.lastReply()).toContain("Ubah downline");
    await typePin(rina, "111222");
    expect(await w.app.deps.network.member(rina.chatId, andi.chatId)).toBeDefined();
    await typePin(rina, PIN);
    expect(await w.app.deps.network.member(rina.chatId, andi.chatId)).toBeUndefined();
    expect(told("Downline Andi: dihapus")).toBe(1);
  });
});
