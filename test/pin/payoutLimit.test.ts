/** A downline's payout the owner confirms is money-out: it asks the PIN and counts towards the owner's daily limit (issue 39). */
import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { fund, rinaAndAndi } from "../network/support.js";
import { setPin, toTransferConfirm, typePin } from "./support.js";

const PIN = "739164";
const CREATE = "/transfer/create";

describe("a confirmed payout and the daily limit", () => {
  let w: World;
  afterEach(() => w?.close());
  const alert = () => String(w.fake.callsOf("answerCallbackQuery").at(-1)?.payload.text ?? "");

  /** Up to a confirm screen in Rina's chat; returns its message id. */
  const screen = (u: FakeUser) => u.messages().filter((m) => m.text?.includes("Periksa sebelum konfirmasi")).at(-1)!.messageId;

  it("asks the owner's PIN, and counts: the owner's own transfer over what is left is refused", async () => {
    w = await makeWorld();
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    await setPin(rina, PIN);
    await rina.sendCommand("pin", "batas 30rb");
    await typePin(rina, PIN);
    expect(rina.replies().join("\n")).toContain("Batas uang keluar harian: Rp30.000");

    await andi.sendCommand("tarik");
    await andi.sendText("bca");
    await andi.pressButton(/BCA/);
    await andi.sendText("1234567890");
    await andi.sendText("20000");
    await andi.pressButton(/Konfirmasi/);
    await rina.pressButton(/Buka transfer/);
    await rina.pressButton(/Konfirmasi/, { messageId: screen(rina) });
    expect(rina.lastReply()).toContain("Masukkan PIN untuk: Transfer");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    await typePin(rina, PIN);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    // Rp20.000 of Rp30.000 spent: Rina's own Rp15.000 is over.
    await toTransferConfirm(rina, "15rb", "1234567001");
    await rina.pressButton(/Konfirmasi/, { messageId: screen(rina) });
    expect(alert()).toContain("Melebihi batas uang keluar harian Rp30.000. Sisa hari ini: Rp10.000");
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    // Andi's next payout over what is left: the screen says so, keeps only Batal, and the request waits.
    await andi.sendCommand("tarik");
    await andi.sendText("bca");
    await andi.pressButton(/BCA/);
    await andi.sendText("1234567002");
    await andi.sendText("15000");
    await andi.pressButton(/Konfirmasi/);
    await rina.pressButton(/Buka transfer/);
    const payoutScreen = screen(rina);
    await rina.pressButton(/Konfirmasi/, { messageId: payoutScreen });
    expect(w.fake.message(rina.chatId, payoutScreen)!.text).toContain("Sisa hari ini: Rp10.000");
    expect(rina.buttons({ messageId: payoutScreen })).toEqual(["❌ Batal"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  });
});
