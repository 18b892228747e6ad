/**
 * Removing a staff member counts from that person's next update: on the same process, and on another
 * process behind the load balancer (each update reads the chat's record, in the shared database). A
 * removed person's open flow and confirm screen end without selling anything.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ManualClock } from "../../src/tools/clock.js";
import { silentLogger } from "../../src/logging/logger.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { makeUser } from "../support/chat.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "./support.js";

const CREATE = "/transaksi/create";
const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

async function removeFromStaf(rina: ReturnType<World["user"]>, name: RegExp): Promise<void> {
  await rina.sendCommand("staf");
  await rina.pressButton(name);
  await rina.pressButton(/Keluarkan sekarang/);
  expect(rina.lastReply()).toContain("dikeluarkan");
}

describe("removing a cashier", () => {
  it("refuses the next tap: a confirm screen shown before sells nothing; the open flow ends", async () => {
    const w = await makeWorld();
    worlds.push(w);
    const { rina, dewi } = await ownerAndStaff(w);
    await dewi.sendCommand("beli", "S10");
    await dewi.sendText("081234567890");
    const confirmScreen = dewi.lastReply();
    expect(confirmScreen).toContain("081234567890");
    const confirm = dewi.callbackUpdate(/Konfirmasi/);
    // A second sale waits in a flow for its number.
    await removeFromStaf(rina, /Dewi/);
    expect(dewi.lastReply()).toContain("mengakhiri keanggotaan");

    await dewi.deliver(confirm);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect((await w.store.getChat(dewi.chatId))?.staffOf).toBeUndefined();
    // The owner's ledger holds the draft only, never sent.
    const items = (await w.store.listTxByChat(rina.chatId)).items;
    expect(items.map((t) => t.status)).toEqual(["draft"]);
  });

  it("ends a flow that was waiting for an answer: the answer starts nothing", async () => {
    const w = await makeWorld();
    worlds.push(w);
    const { rina, dewi } = await ownerAndStaff(w);
    await dewi.sendCommand("beli", "S10");
    expect((await w.store.getFlow(dewi.chatId)).state).toBeDefined();
    await removeFromStaf(rina, /Dewi/);
    expect((await w.store.getFlow(dewi.chatId)).state).toBeUndefined();
    await dewi.sendText("081234567890");
    expect((await w.store.listTxByChat(rina.chatId)).items).toEqual([]);
    expect((await w.store.listTxByChat(dewi.chatId)).items).toEqual([]);
  });

  it("a role change counts from the next tap: a cashier made admin opens /laporan", async () => {
    const w = await makeWorld();
    worlds.push(w);
    const { rina, dewi } = await ownerAndStaff(w);
    await dewi.sendCommand("laporan");
    expect(dewi.lastReply()).toContain("Hanya pemilik atau admin toko");
    await rina.sendCommand("staf");
    await rina.pressButton(/Dewi/);
    await rina.pressButton(/Jadikan admin toko/);
    await dewi.sendCommand("laporan");
    expect(dewi.lastReply()).not.toContain("Hanya pemilik");
  });
});

describe.skipIf(!hasPg)("removal seen by the second process", () => {
  it("removed on A, the very next tap on B is refused", async () => {
    const url = await freshDatabase();
    const shared = (clock: ManualClock) => PgShared.open(url, { clock, logger: silentLogger });
    const a = await makeWorld({ shared, env: { STORE_URL: url } });
    worlds.push(a);
    const b = await makeWorld({ shared, env: { STORE_URL: url } });
    worlds.push(b);
    for (let i = 0; i < 10_000; i++) b.fake.nextUpdateId();

    const { rina, dewi } = await ownerAndStaff(a);
    // Dewi's updates reach B from here on; B has served her before (its caches are warm).
    const dewiOnB = makeUser({ handleUpdate: (u) => b.bot.handleUpdate(u) }, b.fake, { id: dewi.chatId, firstName: "Dewi", languageCode: "id", clock: b.clock });
    await dewiOnB.sendCommand("beli", "S10");
    await dewiOnB.sendText("081234567890");
    const confirm = dewiOnB.callbackUpdate(/Konfirmasi/);

    await removeFromStaf(rina, /Dewi/);
    await b.bot.handleUpdate(confirm);
    expect(a.sandbox.calls(CREATE).length + b.sandbox.calls(CREATE).length).toBe(0);
    await dewiOnB.sendCommand("riwayat");
    expect((await b.store.listTxByChat(rina.chatId)).items.map((t) => t.status)).toEqual(["draft"]);
  });
});
