/**
 * A staff chat's Telegram Menu lists what its role may use (a chat scope over the bot's full list):
 * set on joining, changed with the role, removed when the membership ends.
 */
import { afterEach, expect, it } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { leaveStaff, ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

/** The newest Indonesian command list set for `u`'s own chat. */
function menuOf(u: FakeUser): string[] | undefined {
  const set = w.fake
    .callsOf("setMyCommands")
    .filter((c) => JSON.stringify(c.payload.scope) === JSON.stringify({ type: "chat", chat_id: u.chatId }) && c.payload.language_code === "id");
  return (set.at(-1)?.payload.commands as { command: string }[] | undefined)?.map((c) => c.command);
}

it("a cashier's menu lists selling, not the owner's or an admin's commands; an admin's adds the admin's", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  const cashier = menuOf(dewi)!;
  expect(cashier).toEqual(expect.arrayContaining(["beli", "tagihan", "harga", "status", "riwayat", "pelanggan", "keluar", "bantuan"]));
  for (const hidden of ["transfer", "deposit", "staf", "audit", "kunci", "saldo", "laporan", "markup"]) expect(cashier).not.toContain(hidden);
  await rina.sendCommand("staf");
  await rina.pressButton(/Dewi/);
  await rina.pressButton(/Jadikan admin toko/);
  const admin = menuOf(dewi)!;
  expect(admin).toEqual(expect.arrayContaining(["beli", "laporan", "markup", "saldo"]));
  for (const hidden of ["transfer", "deposit", "staf", "audit", "kunci"]) expect(admin).not.toContain(hidden);
});

it("leaving (or being removed) drops the chat's own menu: the bot's list applies again", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w);
  await leaveStaff(dewi);
  const dropped = w.fake.callsOf("deleteMyCommands").filter((c) => JSON.stringify(c.payload.scope) === JSON.stringify({ type: "chat", chat_id: dewi.chatId }));
  expect(dropped.map((c) => c.payload.language_code ?? "")).toEqual(expect.arrayContaining(["id", ""]));
});
