/**
 * A cashier sells with the owner's key and balance, each sale recording who made it, and reaches none
 * of the owner's actions: each one tried by command and by a forged button.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cb, type CallbackName } from "../../src/telegram/buttonData.js";
import { buttonAccess, commands, type CommandId } from "../../src/telegram/commands.js";
import { makeWorld, type World } from "../support/world.js";
import { forgedButton, inviteToken, lastCallbackAnswer, leaveStaff, ownerAndStaff } from "./support.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(() => w.close());

/** What the issue keeps for the owner alone, and what a cashier may not do either (the admin's). */
const OWNER_ONLY_COMMANDS: CommandId[] = ["kunci", "transfer", "deposit", "staf", "audit", "webhook", "peringatan"];
const ADMIN_COMMANDS: CommandId[] = ["markup", "hargajual", "toko", "laporan", "ekspor", "saldo"];
const OWNER_ONLY_BUTTONS: string[] = [
  cb.depositCancel.encode({ refId: "D1" }),
  cb.depositCancelYes.encode({ refId: "D1" }),
  cb.depositRelease.encode({ refId: "D1" }),
  cb.depositReleaseConfirm.encode({ refId: "D1" }),
  cb.webhookRenew.encode({}),
  cb.staffInvite.encode({ role: "admin" }),
  cb.staffRemove.encode({ chat: 1 }),
  cb.staffRole.encode({ chat: 1, role: "admin" }),
  cb.staffCost.encode({ on: "on" }),
  cb.staffNotices.encode({ on: "on" }),
  cb.exportAudit.encode({}),
  cb.menu.encode({ name: "transfer" }),
  cb.menu.encode({ name: "deposit" }),
  cb.menu.encode({ name: "alerts" }),
];
const ADMIN_BUTTONS: string[] = [
  cb.exportMenu.encode({}),
  cb.exportMonth.encode({ month: "2026-11" }),
  cb.reportDaily.encode({ on: "on" }),
  cb.menu.encode({ name: "markup" }),
  cb.menu.encode({ name: "shop" }),
  cb.menu.encode({ name: "report" }),
  cb.menu.encode({ name: "export" }),
  cb.menu.encode({ name: "balance" }),
];

describe("a cashier", () => {
  it("joining is told whose shop it is: the owner by name, and the /toko name when there is one", async () => {
    w = await makeWorld();
    const { rina, dewi } = await ownerAndStaff(w);
    expect(dewi.lastReply()).toContain("kasir di toko Rina");
    await dewi.sendCommand("start");
    expect(dewi.lastReply()).toContain("Anda kasir di toko Rina.");
    await rina.sendCommand("toko", "Cell Jaya | Jl. Melati 5");
    await dewi.sendCommand("start");
    expect(dewi.lastReply()).toContain("Anda kasir di Cell Jaya (milik Rina).");
  });

  it("sells with the owner's key and balance: the sale is on the owner's ledger and names the cashier", async () => {
    const { rina, dewi } = await ownerAndStaff(w);
    await rina.sendCommand("markup", "2000");
    const before = w.sandbox.balance(w.demoKey);
    await dewi.sendCommand("beli", "S10");
    await dewi.sendText("081234567890");
    const screen = dewi.lastReply()!;
    expect(screen).toContain("081234567890");
    expect(screen).toMatch(/Harga jual: Rp\d/);
    // Neither the owner's cost, profit nor balance, by default: not on the screen, not on the receipt after.
    expect(screen).not.toMatch(/modal|Untung|Saldo/i);
    await dewi.pressButton(/Konfirmasi/);
    expect(dewi.replies().slice(-2).join("\n")).not.toMatch(/modal|Untung|Saldo/i);
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
    const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
    expect(tx).toMatchObject({ chatId: rina.chatId, by: dewi.chatId });
    expect((await w.store.listTxByChat(dewi.chatId)).items).toEqual([]);
    expect(w.sandbox.balance(w.demoKey)).toBeLessThan(before);
    // The owner's list shows her role and when she was last active.
    await rina.sendCommand("staf");
    expect(rina.lastReply()).toMatch(/1\. Dewi · kasir · aktif terakhir \d{1,2} \w{3} \d{4}, \d{2}\.\d{2} WIB/);
  });

  it("sees the cost and balance once the owner allows it in /staf", async () => {
    const { rina, dewi } = await ownerAndStaff(w);
    await rina.sendCommand("staf");
    await rina.pressButton(/Kasir melihat modal/);
    await dewi.sendCommand("beli", "S10");
    await dewi.sendText("081234567890");
    expect(dewi.lastReply()).toMatch(/Saldo/);
  });

  it("is refused every owner-only and admin command, with who can do it instead", async () => {
    const { dewi } = await ownerAndStaff(w);
    for (const id of OWNER_ONLY_COMMANDS) {
      for (const name of commands[id]) {
        await dewi.sendCommand(name);
        expect(dewi.lastReply(), `/${name}`).toContain("Hanya pemilik yang bisa");
      }
    }
    for (const id of ADMIN_COMMANDS) {
      for (const name of commands[id]) {
        await dewi.sendCommand(name);
        expect(dewi.lastReply(), `/${name}`).toContain("Hanya pemilik atau admin toko yang bisa");
      }
    }
    // Nothing of it happened: no flow waits, no key is asked for, no transfer or deposit was drafted.
    expect((await w.store.getChat(dewi.chatId))?.awaitingKey).not.toBe(true);
    expect((await w.store.getFlow(dewi.chatId)).state ?? {}).not.toHaveProperty("conversations.transfer");
    expect(w.sandbox.calls().filter((c) => /deposit|transfer/.test(c.path))).toEqual([]);
  });

  it("is refused every owner-only and admin button, even forged", async () => {
    const { dewi } = await ownerAndStaff(w);
    await dewi.sendCommand("menu");
    for (const data of OWNER_ONLY_BUTTONS) {
      await dewi.deliver(forgedButton(w, dewi, data));
      expect(lastCallbackAnswer(w), data).toContain("Hanya pemilik yang bisa");
    }
    for (const data of ADMIN_BUTTONS) {
      await dewi.deliver(forgedButton(w, dewi, data));
      expect(lastCallbackAnswer(w), data).toContain("Hanya pemilik atau admin toko yang bisa");
    }
  });

  it("meets the table for every button family: a family a cashier may not press is refused", async () => {
    const { dewi } = await ownerAndStaff(w);
    await dewi.sendCommand("menu");
    const refusedFamilies: string[] = [];
    for (const name of Object.keys(cb) as CallbackName[]) {
      const data = cb[name].encode(cb[name].longest()[0]! as never);
      const access = buttonAccess(data)!.access;
      if (access !== "owner" && access !== "admin") continue;
      await dewi.deliver(forgedButton(w, dewi, data));
      if (lastCallbackAnswer(w).includes("Hanya pemilik")) refusedFamilies.push(name);
      else throw new Error(`${name} (${data}) was not refused: ${lastCallbackAnswer(w)}`);
    }
    expect(refusedFamilies).toEqual(expect.arrayContaining(["depositCancel", "depositRelease", "webhookRenew", "staffRemove"]));
  });

  it("sees a menu of what a cashier may do: no transfer, deposit, balance, prices or reports", async () => {
    const { rina, dewi } = await ownerAndStaff(w);
    await dewi.sendCommand("menu");
    const buttons = dewi.buttons().join(" | ");
    expect(buttons).toMatch(/Beli/);
    expect(buttons).not.toMatch(/Transfer|Deposit|Saldo|Laporan|Harga jual|Ekspor/);
    await rina.sendCommand("menu");
    expect(rina.buttons().join(" | ")).toMatch(/Transfer/);
  });

  it("pasting an api key is refused and the message deleted; the chat stays staff without a key", async () => {
    const { rina, dewi } = await ownerAndStaff(w);
    await dewi.sendText(w.demoKey);
    const pasted = dewi.messages().find((m) => m.from === "user" && m.text === w.demoKey);
    expect(pasted?.deleted).toBe(true);
    expect(dewi.lastReply()).toContain("Chat staf tidak bisa menghubungkan API key");
    const record = await w.store.getChat(dewi.chatId);
    expect(record?.apiKeyEnc).toBeUndefined();
    expect(record?.staffOf?.owner).toBe(rina.chatId);
  });

  it("never links a key: a short key-shaped text is deleted and refused, other text is not taken as a key", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const dewi = w.user({ firstName: "Dewi", languageCode: "id" });
    // She met the bot before she was invited: it asked her for a key then.
    await dewi.sendCommand("start");
    await dewi.sendCommand("start", `staff_${await inviteToken(rina, "cashier")}`);
    await dewi.sendText("halo");
    expect(dewi.lastReply()).not.toMatch(/API key/);
    await dewi.sendText("AbCdEfGh12");
    expect(dewi.lastReply()).toContain("Chat staf tidak bisa menghubungkan API key");
    expect(w.sandbox.calls("/get_profile")).toHaveLength(0);
    expect((await w.store.getChat(dewi.chatId))?.apiKeyEnc).toBeUndefined();
  });

  it("/keluar ends the membership only: the owner's key stays, the cashier is refused after", async () => {
    const { rina, dewi } = await ownerAndStaff(w);
    await leaveStaff(dewi);
    expect(dewi.lastReply()).toContain("bukan staf lagi");
    expect(await w.store.getApiKey(rina.chatId)).toBe(w.demoKey);
    expect((await w.store.getChat(dewi.chatId))?.staffOf).toBeUndefined();
    await dewi.sendCommand("beli", "S10");
    await dewi.sendText("081234567890");
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0);
    expect((await w.store.listTxByChat(rina.chatId)).items).toEqual([]);
  });
});

describe("invitations", () => {
  it("an expired, used or forged invitation says so and changes nothing", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const token = await inviteToken(rina, "cashier");
    const forged = w.user({ languageCode: "id" });
    await forged.sendCommand("start", "staff_notARealToken123");
    expect(forged.lastReply()).toContain("tidak dikenal");
    const late = w.user({ languageCode: "id" });
    await w.clock.advance(24 * 60 * 60 * 1000 + 1);
    await late.sendCommand("start", `staff_${token}`);
    expect(late.lastReply()).toContain("kedaluwarsa");
    for (const u of [forged, late]) expect((await w.store.getChat(u.chatId))?.staffOf).toBeUndefined();

    const fresh = await inviteToken(rina, "cashier");
    const first = w.user({ languageCode: "id" });
    const second = w.user({ languageCode: "id" });
    await first.sendCommand("start", `staff_${fresh}`);
    await second.sendCommand("start", `staff_${fresh}`);
    expect(second.lastReply()).toContain("sudah dipakai");
    expect((await w.store.getChat(second.chatId))?.staffOf).toBeUndefined();
    expect((await w.store.getChat(first.chatId))?.staffOf).toMatchObject({ owner: rina.chatId, role: "cashier" });
  });

  it("the owner cannot invite itself or another owner", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const budi = await w.linkedUser({ firstName: "Budi", languageCode: "id" });
    const token = await inviteToken(rina, "admin");
    await rina.sendCommand("start", `staff_${token}`);
    expect(rina.lastReply()).toContain("undangan Anda sendiri");
    await budi.sendCommand("start", `staff_${token}`);
    expect(budi.lastReply()).toContain("pemilik tidak bisa menjadi staf orang lain");
    expect((await w.store.getChat(rina.chatId))?.staffOf).toBeUndefined();
    expect((await w.store.getChat(budi.chatId))?.staffOf).toBeUndefined();
  });

  it("at most 20 staff per owner", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    for (let i = 0; i < 20; i++) await inviteToken(rina, "cashier");
    await rina.sendCommand("staf");
    await rina.pressButton(/Undang kasir/);
    expect(rina.lastReply()).toContain("Batas staf tercapai");
  });
});
