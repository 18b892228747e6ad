import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { ManualClock } from "../../src/tools/clock.js";
import { post, type Json } from "./harness.js";

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

describe("sandbox state file", () => {
  it("a restarted sandbox goes on: balances, a pending sale that still settles at its time, deposits, price changes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sandbox-state-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const stateFile = join(dir, "state.json");
    const clock = new ManualClock();
    const start = (): Promise<Sandbox> => createSandbox({ clock, seed: 7, settleMs: 60_000, stateFile });
    const call = async (sb: Sandbox, path: string, form: Record<string, string>) => (await post(sb.url, path, { api_key: sb.demoKey, ...form })).json as Json;

    const first = await start();
    const before = first.balance(first.demoKey);
    const sale = await call(first, "/transaksi/create", { code: "S10", reff_id: "KEEP-1", target: "081234567890" });
    const deposit = await call(first, "/deposit/create", { reff_id: "KEEP-D", nominal: "50000", type: "ewallet", metode: "qris" });
    first.setPrice("S10", 11_000);
    await clock.advance(1_000); // the write waits a moment (many changes, one write)
    await first.close();
    expect(await readdir(dir)).toEqual(["state.json"]); // renamed over: no temporary file left

    const again = await start();
    cleanup.push(() => again.close());
    expect(again.balance(again.demoKey)).toBe(before - Number(sale.data.price));
    expect((await call(again, "/transaksi/status", { id: sale.data.id, type: "prabayar" })).data.status).toBe("pending");
    expect((await call(again, "/deposit/status", { id: deposit.data.id })).data.status).toBe("pending");
    expect(again.settle("KEEP-1", "failed")).toBe(true);
    expect(again.balance(again.demoKey)).toBe(before); // refunded once, as before a restart
    // The same reference is still taken; the changed price stays.
    expect((await call(again, "/transaksi/create", { code: "S10", reff_id: "KEEP-1", target: "081234567890" })).message).toMatch(/sudah digunakan/);
    expect((await call(again, "/transaksi/create", { code: "S10", reff_id: "KEEP-2", target: "081234567890" })).data.price).toBe("11000");
  });

  it("a pending sale restored from the file settles on the clock once callbacks are on", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sandbox-state-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const stateFile = join(dir, "state.json");
    const clock = new ManualClock();
    const first = await createSandbox({ clock, seed: 7, settleMs: 60_000, stateFile });
    await post(first.url, "/transaksi/create", { api_key: first.demoKey, code: "S10", reff_id: "TIMED", target: "081234567890" });
    await first.close();

    const again = await createSandbox({ clock, seed: 7, settleMs: 60_000, stateFile });
    cleanup.push(() => again.close());
    const told: string[] = [];
    again.setCallbackTarget(() => ["http://callback.invalid/x"], async (_url, init) => {
      told.push(JSON.parse(String(init.body)).status);
      return new Response("{}");
    });
    await clock.advance(61_000);
    await again.callbacksIdle();
    expect(told).toEqual(["success"]);
  });
});
