/**
 * A slow provider (answers later than the read timeout) with a price list fetched minutes before:
 * /beli CODE TARGET shows the confirm screen from that list, saying how old it is, instead of failing;
 * the confirmed price still goes out as the limit price.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { until } from "../support/settle.js";

const PRICE_LIST = "/layanan/price_list";
const PROFILE = "/get_profile";
let w: World;
afterEach(() => w?.close());

it("/beli CODE TARGET shows the confirm screen from the list fetched minutes before, with its age", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("harga");
  expect(w.sandbox.calls(PRICE_LIST)).toHaveLength(1);
  await w.clock.advance(7 * 60_000); // past the list's five minutes
  const releaseList = w.sandbox.holdNext(PRICE_LIST);
  const releaseProfile = w.sandbox.holdNext(PROFILE);
  const asked = u.sendCommand("beli", "S10 081234567890");
  await until(() => w.sandbox.calls(PRICE_LIST).length === 2, { tries: 1000 });
  await w.clock.advance(3000);
  await until(() => w.sandbox.calls(PROFILE).length > 0, { tries: 1000 });
  await w.clock.advance(3000);
  await asked;
  const screen = u.lastReply() ?? "";
  expect(screen).toContain("Periksa sebelum konfirmasi");
  expect(screen).toContain("S10");
  expect(screen).toContain("7 menit lalu");
  expect(screen).not.toContain("tidak bisa dihubungi");
  releaseList();
  releaseProfile();
  await u.pressButton(/Konfirmasi/);
  const create = w.sandbox.calls("/transaksi/create");
  expect(create).toHaveLength(1);
  expect(create[0]!.body.limit_price).toBeDefined();
});
