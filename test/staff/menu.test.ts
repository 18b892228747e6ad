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

/** The newest reply to `u`'s /bantuan, as a list of the commands it names. */
async function helpOf(u: FakeUser): Promise<{ text: string; names: string[] }> {
  await u.sendCommand("bantuan");
  const text = u.lastReply() ?? "";
  return { text, names: [...text.matchAll(/^\/(\w+):/gm)].map((m) => m[1]!) };
}

it("a cashier's /bantuan lists what a cashier may do, and /keluar there and in her Menu means leaving the staff", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  const help = await helpOf(dewi);
  expect(help.names).toEqual(expect.arrayContaining(["menu", "beli", "tagihan", "harga", "status", "riwayat", "pelanggan", "pesanan", "bahasa", "keluar", "batal"]));
  for (const hidden of ["transfer", "deposit", "staf", "audit", "kunci", "saldo", "laporan", "markup", "webhook", "peringatan"]) expect(help.names).not.toContain(hidden);
  expect(help.text).toMatch(/^\/keluar: berhenti menjadi staf/m);
  const menu = w.fake.callsOf("setMyCommands").filter((c) => JSON.stringify(c.payload.scope) === JSON.stringify({ type: "chat", chat_id: dewi.chatId }) && c.payload.language_code === undefined).at(-1)!;
  const keluar = (menu.payload.commands as { command: string; description: string }[]).find((c) => c.command === "logout");
  expect(keluar?.description).toMatch(/stop working as staff/i);

  // Her /bantuan follows her role; the owner's still lists everything.
  await rina.sendCommand("staf");
  await rina.pressButton(/Dewi/);
  await rina.pressButton(/Jadikan admin toko/);
  expect((await helpOf(dewi)).names).toEqual(expect.arrayContaining(["laporan", "markup", "saldo", "ekspor"]));
  expect((await helpOf(dewi)).names).not.toContain("staf");
  expect((await helpOf(rina)).names).toEqual(expect.arrayContaining(["transfer", "deposit", "staf", "audit", "kunci", "keluar"]));
  expect((await helpOf(rina)).text).toMatch(/^\/keluar: hapus API key/m);
});

it("a chat's Menu is set when its role changes, not on its other updates", async () => {
  w = await makeWorld();
  const { dewi } = await ownerAndStaff(w);
  const menus = () => w.fake.callsOf("setMyCommands").length + w.fake.callsOf("deleteMyCommands").length;
  const before = menus();
  await dewi.sendCommand("bantuan");
  await dewi.sendCommand("riwayat");
  await dewi.sendCommand("menu");
  expect(menus()).toBe(before);
});

it("a chat whose Menu cannot be set (it blocked the bot) is removed all the same", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  const blocked = { error_code: 403, description: "Forbidden: bot was blocked by the user" };
  w.fake.failNext("setMyCommands", blocked, { times: 10 });
  w.fake.failNext("deleteMyCommands", blocked, { times: 10 });
  await rina.sendCommand("staf");
  await rina.pressButton(/Dewi/);
  await rina.pressButton(/Keluarkan sekarang/);
  expect(rina.lastReply()).toContain("dikeluarkan");
  expect((await w.store.getChat(dewi.chatId))?.staffOf).toBeUndefined();
});
