/**
 * No silent loss: while store writes fail (disk full, read-only), /healthz is red, an error is logged,
 * money actions are refused with nothing sent, the writes are retried on the clock, and once they work
 * again nothing was lost. A write that fails part-way leaves the previous file readable.
 * Tests run as root (chmod cannot stop a write), so the failing disk is a spy on the one file writer.
 */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { afterEach, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { FileStore } from "../../src/store/file/fileStore.js";
import { LogFile } from "../../src/store/file/kindFiles.js";
import { StoreFile } from "../../src/store/file/shards.js";
import { makeWorld, STORE_SECRET, type World } from "../support/world.js";

const CREATE = "/transaksi/create";
const CONFIRM = /Confirm/;
const REFUSED = "storage has a problem right now; no transaction was sent";

let w: World | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await w?.close();
  w = undefined;
});

const diskFull = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

it("a failing store turns /healthz red, logs an error, refuses money actions with nothing sent, and recovers with nothing lost", async () => {
  let log = "";
  w = await makeWorld({
    env: { HTTP_PORT: "0" },
    logger: createLogger("info", new Writable({ write: (c, _e, done) => ((log += String(c)), done()) })),
  });
  await w.app.start();
  const url = w.app.http()!.url;
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("beli", "S10 081234567890");
  const [draft] = (await w.store.listTxByChat(u.chatId)).items;
  expect(draft!.status).toBe("draft");

  // The disk fills up; a background change (the chat switches to English) fails to reach it.
  const full = vi.spyOn(StoreFile.prototype, "write").mockRejectedValue(diskFull());
  await u.sendCommand("bahasa");
  await u.pressButton(/English/);
  await w.clock.advance(100);
  expect(w.store.canPersist()).toBe(false);

  const res = await fetch(`${url}/healthz`);
  expect(res.status).toBe(503);
  const body = (await res.json()) as { problems: string[]; storeWritable: boolean };
  expect(body.storeWritable).toBe(false);
  expect(body.problems.join("; ")).toMatch(/store writes failing: .*chats-\d+\.json/);
  const errors = log.split("\n").filter((l) => l.includes('"level":"error"'));
  expect(errors.join("\n")).toContain("store write failed");

  // Indonesian first: another reseller (linked while the disk is full) is refused in Indonesian.
  const other = await w.linkedUser({ languageCode: "id" });
  await other.sendCommand("beli", "S10 081234567890");
  expect(other.lastReply()).toContain("Penyimpanan bot sedang bermasalah; tidak ada transaksi yang dikirim.");

  // Every way to move money is refused, in the user's language, and nothing reaches the provider.
  const refused = async (act: () => Promise<unknown>) => {
    await act();
    expect(u.replies().join("\n")).toContain(REFUSED);
  };
  await refused(() => u.pressButton(/Konfirmasi/));
  await refused(() => u.sendCommand("topup", "S10 081234567890"));
  await refused(() => u.sendCommand("topup"));
  await refused(() => u.sendCommand("bill"));
  await refused(() => u.sendCommand("transfer"));
  await refused(() => u.sendCommand("deposit"));
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  expect((await w.store.getTx(draft!.refId))!.status).toBe("draft");

  // The disk frees up: the next retry on the clock writes everything, health is green again.
  full.mockRestore();
  expect(w.store.canPersist()).toBe(false);
  await w.clock.advance(1500);
  // The retry's file I/O is real: wait for it (no clock time passes meanwhile).
  await vi.waitFor(() => expect(w!.store.canPersist()).toBe(true));
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  await u.pressButton(/Konfirmasi/);
  expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  expect(u.lastReply()).toContain("Processing");

  // Nothing was lost: what changed while the disk was full survives a restart.
  await w.restart();
  expect((await w.store.getChat(u.chatId))!.lang).toBe("en");
  expect(await w.store.getApiKey(other.chatId)).toBe(w.demoKey);
  expect((await w.store.getTx(draft!.refId))!.status).not.toBe("draft");
});

it("a write that fails part-way leaves the previous file intact and readable after a restart", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  const [draft] = (await w.store.listTxByChat(u.chatId)).items;
  await w.store.flush();
  const storeDir = join(w.dir, "store");
  const files = (await readdir(storeDir)).filter((n) => /^tx-\d+\.json$/.test(n));
  const before = new Map(await Promise.all(files.map(async (n) => [n, await readFile(join(storeDir, n), "utf8")] as const)));

  // The disk fills up in the middle of a write: half the temp file is written, then the write fails.
  vi.spyOn(StoreFile.prototype, "write").mockImplementation(function (this: StoreFile<unknown>, data: unknown) {
    const text = JSON.stringify(data);
    writeFileSync(join(storeDir, `.${this.name}.tmp`), text.slice(0, text.length >> 1));
    return Promise.reject(diskFull());
  });
  // The same disk takes no journal line either (a money record's durable write goes there first).
  vi.spyOn(LogFile.prototype, "write").mockRejectedValue(diskFull());
  await u.pressButton(CONFIRM);
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  expect(String(w.fake.lastCall("answerCallbackQuery")!.payload.text)).toContain("Nothing was sent");

  // The process dies now (no last flush): a copy of the folder as it is stands for the disk after a crash.
  const crashed = await mkdtemp(join(tmpdir(), "ppob-crashed-"));
  await cp(storeDir, join(crashed, "store"), { recursive: true });
  for (const [name, text] of before) expect(await readFile(join(storeDir, name), "utf8")).toBe(text);
  vi.restoreAllMocks();
  const reopened = await FileStore.open({ dir: crashed, secret: STORE_SECRET });
  try {
    expect((await reopened.getTx(draft!.refId))!.status).toBe("draft");
    expect(await reopened.getApiKey(u.chatId)).toBe(w.demoKey);
  } finally {
    await reopened.close();
    await rm(crashed, { recursive: true, force: true });
  }
});
