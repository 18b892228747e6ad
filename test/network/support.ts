/** The network tests' shared steps: Rina (owner) invites Andi as a Gold downline. */
import { expect } from "vitest";
import type { FakeUser } from "../support/chat.js";
import type { World } from "../support/world.js";

/** Rina (owner) and Andi, who joined by a Gold invitation link (which then works no more). */
export async function rinaAndAndi(w: World): Promise<{ rina: FakeUser; andi: FakeUser }> {
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  const andi = w.user({ firstName: "Andi", languageCode: "id" });
  await rina.sendCommand("downline");
  expect(rina.lastReply()).toContain("Belum ada downline");
  await rina.pressButton(/Undang downline Gold/);
  const token = /start=dl_([A-Za-z0-9_-]+)/.exec(rina.lastReply() ?? "")?.[1];
  expect(token, rina.lastReply()).toBeDefined();
  await andi.sendCommand("start", `dl_${token}`);
  expect(andi.lastReply()).toContain("downline level Gold");
  expect(rina.lastReply()).toContain("Andi bergabung sebagai downline level Gold");
  const other = w.user({ firstName: "Budi", languageCode: "id" });
  await other.sendCommand("start", `dl_${token}`);
  expect(other.lastReply()).toContain("sudah dipakai");
  return { rina, andi };
}
