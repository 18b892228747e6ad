/**
 * The audit log, through the built bot: each sensitive act appends exactly one entry to the owner's
 * log (who, what, before/after), /audit shows them newest first with the time in WIB, /ekspor exports
 * them, and nothing the bot does changes an entry once written.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { AuditKind, type AuditAct } from "../../src/domain/audit.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { inviteToken, leaveStaff } from "./support.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(() => w.close());

async function log(owner: FakeUser) {
  return (await w.store.listLog(AuditKind, owner.chatId, { limit: 500 })).reverse();
}

async function pickMethod(u: FakeUser, label: RegExp): Promise<void> {
  for (let page = 0; page < 5 && !u.findButton(label); page++) await u.pressButton(/Berikutnya|Next/);
  await u.pressButton(label);
}

it("records each act once, with who and before/after; /audit shows them; no bot action changes an entry", async () => {
  const rina = w.user({ firstName: "Rina", languageCode: "id" });
  await rina.sendCommand("start");
  await rina.sendText(w.demoKey); // key linked
  const second = "SecondKey0123456789abcdefXYZ";
  w.sandbox.addKey(second, 5_000_000, "Rina Cell");
  await rina.sendCommand("kunci");
  await rina.sendText(second); // key replaced

  const dewiToken = await inviteToken(rina, "cashier"); // staff invited
  const dewi = w.user({ firstName: "Dewi", languageCode: "id" });
  await dewi.sendCommand("start", `staff_${dewiToken}`); // staff joined
  const sari = w.user({ firstName: "Sari", languageCode: "id" });
  await sari.sendCommand("start", `staff_${await inviteToken(rina, "admin")}`); // invited, joined

  await rina.sendCommand("staf");
  await rina.pressButton(/Dewi/);
  await rina.pressButton(/Jadikan admin toko/); // role changed
  await sari.sendCommand("markup", "2000"); // selling prices changed, by the shop admin
  await sari.sendCommand("toko", "Cell Jaya | Jl. Melati 5"); // shop settings changed
  await rina.sendCommand("staf");
  await rina.pressButton(/Dewi/);
  await rina.pressButton(/Keluarkan sekarang/); // staff removed
  await leaveStaff(sari); // staff left

  await rina.sendCommand("deposit");
  await pickMethod(rina, /^QRIS · /);
  await rina.sendText("50000");
  await rina.pressButton("✅ Konfirmasi"); // deposit created
  const deposit = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.kind === "deposit")!;
  await rina.pressButton("🚫 Batalkan deposit", { messageId: deposit.messageId! });
  await rina.pressButton("🚫 Ya, batalkan"); // deposit cancelled

  await rina.sendCommand("transfer");
  await rina.sendText("bca");
  await rina.pressButton(/BCA/);
  await rina.sendText("1234567890");
  await rina.sendText("50000");
  await rina.pressButton(/Lewati|Skip/);
  await rina.pressButton("✅ Konfirmasi"); // transfer

  await rina.sendCommand("ekspor");
  await rina.pressButton(/\d{4}/); // export (a month)

  const entries = await log(rina);
  const acts = entries.map((e) => e.entry.act);
  const expected: AuditAct[] = [
    "key_linked",
    "key_replaced",
    "staff_invited",
    "staff_joined",
    "staff_invited",
    "staff_joined",
    "staff_role_changed",
    "prices_changed",
    "shop_changed",
    "staff_removed",
    "staff_left",
    "deposit_created",
    "deposit_cancelled",
    "transfer",
    "export",
  ];
  expect(acts).toEqual(expected);
  const by = (act: AuditAct) => entries.find((e) => e.entry.act === act)!.entry;
  expect(by("prices_changed")).toMatchObject({ by: sari.chatId, byName: "Sari" });
  expect(by("prices_changed").after).toContain("2000");
  expect(by("shop_changed").after).toContain("Cell Jaya");
  expect(by("staff_role_changed")).toMatchObject({ before: `${dewi.chatId} cashier`, after: `${dewi.chatId} admin` });
  expect(by("staff_joined")).toMatchObject({ by: dewi.chatId, byName: "Dewi", after: "cashier" });
  // Masks only: the log never holds the key.
  expect(JSON.stringify(entries)).not.toContain(w.demoKey);
  expect(JSON.stringify(entries)).not.toContain(second);

  await rina.sendCommand("audit");
  const shown = rina.lastReply()!;
  expect(shown).toContain("Catatan audit");
  expect(shown).toMatch(/\d{1,2} \w{3} \d{4},? \d{2}\.\d{2} WIB · Rina · ekspor\n\s+– → \w+ \d{4}\n/);
  expect(shown.indexOf("ekspor")).toBeLessThan(shown.indexOf("transfer"));
  await rina.pressButton(/Lebih lama/);
  expect(rina.lastReply()).toContain("API key dihubungkan");
  // A role reads in the owner's language, as /staf names it.
  const both = `${shown}\n${rina.lastReply()!}`;
  expect(both).toMatch(/Dewi · staf bergabung\n\s+– → kasir/);
  expect(both).not.toMatch(/cashier/);

  // Everything the owner's chat can do again, including the audit export, only appends.
  await rina.sendCommand("ekspor");
  await rina.pressButton(/Catatan audit/);
  const file = rina.messages().filter((m) => m.kind === "document").at(-1)!;
  expect(file.message.document?.file_name).toBe("audit.csv");
  await rina.sendCommand("keluar"); // key removed
  const after = await log(rina);
  expect(after.slice(0, entries.length)).toEqual(entries);
  expect(after.slice(entries.length).map((e) => e.entry.act)).toEqual(["export", "key_removed"]);
});
