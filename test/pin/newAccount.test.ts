/** A transfer to an account the owner's ledger never paid says so on its confirm screen (issue 39). */
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { toTransferConfirm } from "./support.js";

describe("a new account on the transfer confirm screen", () => {
  let w: World;
  afterEach(() => w?.close());

  it("says 'New account' until a transfer to that bank and number succeeded, then no more", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await toTransferConfirm(u);
    expect(u.lastReply()).toContain("New account: never paid from this account before");
    await u.pressButton("✅ Confirm");
    const [tx] = (await w.store.listTxByChat(u.chatId)).items;
    // Sent but not yet paid: still new (the screen warns of the open one too).
    await u.sendCommand("transfer");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    await u.sendText("1234567890");
    await u.sendText("20rb");
    await u.pressButton("⏭ Skip");
    expect(u.lastReply()).toContain("There is already a purchase");
    expect(u.lastReply()).toContain("New account");
    await u.pressButton(/Cancel|Batal/);
    await w.store.transitionTx(tx!.refId, [tx!.status], { status: "success" });
    await toTransferConfirm(u, "30rb");
    expect(u.lastReply()).not.toContain("New account");
    // Another number at the same bank is new.
    await toTransferConfirm(u, "30rb", "1234567001");
    expect(u.lastReply()).toContain("New account");
  });

  it("is said in Indonesian too", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await toTransferConfirm(u);
    expect(u.lastReply()).toContain("Rekening baru");
  });
});
