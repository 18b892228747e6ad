/** /staf writes its times as the rest of the bot does, in the owner's language, and "never active" as a phrase. */
import { afterEach, expect, it } from "vitest";
import { MemberKind } from "../../src/domain/staff.js";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

/** The owner's members as if none had used the bot since joining (the join itself counts as activity). */
async function neverActive(owner: number): Promise<void> {
  for (const doc of await w.store.listDocs(MemberKind, { owner })) {
    const { lastActiveAt: _, ...value } = doc.value;
    await w.store.updateDoc(MemberKind, doc.id, { version: doc.version }, { value });
  }
}

it("in Indonesian: the invitation's end and the last activity read like the bot's other times; a new member 'belum pernah aktif'", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  // Joined at 15 Jan 2026, 10.00 WIB (the world's clock); the invitation runs a day.
  await rina.sendCommand("staf");
  await rina.pressButton(/Undang kasir/);
  expect(rina.lastReply()).toContain("berlaku sampai 16 Jan 2026, 10.00 WIB");
  await neverActive(rina.chatId);
  await rina.sendCommand("staf");
  expect(rina.lastReply()).toContain("1. Dewi · kasir · belum pernah aktif");
  await w.clock.advance(5 * 60_000);
  await dewi.sendCommand("riwayat");
  await rina.sendCommand("staf");
  expect(rina.lastReply()).toContain("1. Dewi · kasir · aktif terakhir 15 Jan 2026, 10.05 WIB");
  await rina.pressButton(/Dewi/);
  expect(rina.lastReply()).toContain("Bergabung: 15 Jan 2026, 10.00 WIB");
  expect(rina.lastReply()).toContain("Aktif terakhir: 15 Jan 2026, 10.05 WIB");
});

it("in English: 'never active', and times as the bot's English times (15 Jan 2026, 10:00 WIB)", async () => {
  w = await makeWorld();
  const { rina } = await ownerAndStaff(w);
  await rina.sendCommand("bahasa");
  await rina.pressButton(/English/);
  await neverActive(rina.chatId);
  await rina.sendCommand("staff");
  expect(rina.lastReply()).toContain("1. Dewi · cashier · never active");
  await rina.pressButton(/Dewi/);
  expect(rina.lastReply()).toContain("Joined: 15 Jan 2026, 10:00 WIB");
  expect(rina.lastReply()).toContain("Never active");
  await rina.sendCommand("staff");
  await rina.pressButton(/Invite a cashier/);
  expect(rina.lastReply()).toContain("valid until 16 Jan 2026, 10:00 WIB");
});
