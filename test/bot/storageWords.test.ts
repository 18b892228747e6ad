/**
 * The disk fills (or turns read-only) while the bot still believes it can save: the first action
 * that needs a write finds out. The answer says what is true (storage is failing, nothing went to
 * the provider, try again in a few minutes), never the generic "something went wrong, try again"
 * (an invitation to retry a money action) and never blames the provider.
 * (Confirm already answers with confirm-not-saved.) Tests run as root (chmod cannot stop a write), so the failing disk is a spy on the one file writer.
 */
import { afterEach, expect, it, vi } from "vitest";
import { StoreFile } from "../../src/store/file/shards.js";
import { makeWorld, type World } from "../support/world.js";

let w: World | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await w?.close();
  w = undefined;
});

const CREATE = "/transaksi/create";
const failing = (code: string) => () => vi.spyOn(StoreFile.prototype, "write").mockRejectedValue(Object.assign(new Error(`${code}: write failed`), { code }));
const GENERIC = /terjadi kesalahan|something went wrong/;
const PROVIDER = /penyedia tidak bisa dihubungi|provider cannot be reached/;

it.each([["a full disk", "ENOSPC"], ["a read-only disk", "EROFS"]])("%s found by /beli: the reseller hears the storage is failing and nothing was sent", async (_name, code) => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  failing(code)();
  await u.sendCommand("beli", "S10 081234567890");
  expect(u.lastReply()).not.toMatch(GENERIC);
  expect(u.lastReply()).toContain("Penyimpanan bot sedang gagal menyimpan");
  expect(u.lastReply()).toContain("tidak ada yang dikirim ke penyedia");
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
});

it("a full disk found while linking a key: the provider is not blamed; the key was accepted but is not saved yet", async () => {
  w = await makeWorld();
  const u = w.user({ languageCode: "id" });
  await u.sendCommand("start");
  failing("ENOSPC")();
  await u.sendText(w.demoKey);
  expect(u.lastReply()).not.toMatch(PROVIDER);
  expect(u.lastReply()).toContain("Penyimpanan bot sedang gagal menyimpan");
});
