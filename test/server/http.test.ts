/**
 * The one HTTP server (HTTP_PORT): /healthz green and red, /metrics counting what happened, and
 * answers that are safe on the open internet.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { makeWorld, type World } from "../support/world.js";
import { onPostgres } from "../support/pg.js";
import { runFor } from "../jobs/support.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** Error-level lines the app logged (a monitor alerts on them). */
let errors: string[] = [];

async function started(): Promise<{ w: World; url: string }> {
  errors = [];
  const sink = new Writable({ write: (c: Buffer, _e, done) => (String(c).split("\n").filter((l) => l.includes('"level":"error"') || l.includes('"level":50')).forEach((l) => errors.push(l)), done()) });
  w = await makeWorld({ env: { HTTP_PORT: "0" }, logger: createLogger("info", sink) });
  await w.app.start();
  const http = w.app.http();
  expect(http).toBeDefined();
  return { w, url: http!.url };
}

describe("GET /healthz", () => {
  it("is 200 with what a monitor needs while the bot polls and the store writes", async () => {
    const { url } = await started();
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, problems: [], updatesLoopAlive: true, storeWritable: true, pendingIdsWatched: 0, broadcastRunning: false });
    expect(body).toHaveProperty("lastUpdateHandledAt", null);
    expect(body).toHaveProperty("lastProviderOkAt", null);
  });

  it("is 503 naming the store when it cannot be written, and green again once it can", async () => {
    const { w, url } = await started();
    await w.breakStore();
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ok: boolean; problems: string[]; storeWritable: boolean };
    expect(body.ok).toBe(false);
    expect(body.storeWritable).toBe(false);
    expect(body.problems.join("; ")).toMatch(/store is not writable/);
    await w.repairStore();
    // On PostgreSQL the lead came back with the database: its work (polling) restarts after a term check.
    await vi.waitFor(async () => expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ ok: true, problems: [] }), {
      timeout: 10_000,
      interval: 20,
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  // On PostgreSQL stop() gives the lead up first, and a process that does not lead expects no loop.
  it.skipIf(onPostgres)("is 503 naming the updates loop once polling stopped", async () => {
    const { w } = await started();
    const http = w.app.http()!;
    // Stop only the loop: the server itself is closed by stop(), so check through a fresh report.
    await w.app.stop();
    const report = await w.app.observers.health.report();
    expect(report.ok).toBe(false);
    expect(report.problems).toContain("updates loop is not running");
    await expect(fetch(`${http.url}/healthz`)).rejects.toThrow();
  });
});

describe("GET /metrics", () => {
  it("counts a purchase: the update, the provider calls and the create by kind and outcome", async () => {
    const { w, url } = await started();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "dana25 0896 1234 5678");
    await u.pressButton(/Konfirmasi/);
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);

    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/^bot_updates_handled_total 2$/m);
    expect(text).toMatch(/^provider_creates_total\{kind="prepaid",outcome="\w+"\} 1$/m);
    expect(text).toMatch(/^provider_call_seconds_count\{endpoint="\/transaksi\/create",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^telegram_api_calls_total\{method="sendMessage",result="ok"\} [1-9]/m);
    expect(text).toMatch(/^store_write_seconds_count\{outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^watcher_pending_ids \d+$/m);

    const health = (await (await fetch(`${url}/healthz`)).json()) as { lastUpdateHandledAt: unknown; lastProviderOkAt: unknown };
    expect(health.lastUpdateHandledAt).not.toBeNull();
    expect(health.lastProviderOkAt).not.toBeNull();
    // Counting is silent: no error line for a purchase that went well.
    expect(errors).toEqual([]);
  });
});

describe("GET /metrics: notices", () => {
  it("counts the watcher's status notices by kind with their delay", async () => {
    const { w, url } = await started();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton(/Konfirmasi/);
    await runFor(w.clock, w.app.watcher, 30_000); // the sandbox settles after 5 s; the watcher sees it
    expect((await w.store.listTxByChat(u.chatId)).items[0]!.status).toBe("success");
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toMatch(/^watcher_notice_seconds_count\{kind="success"\} 1$/m);
  });
});

describe("the server on the open internet", () => {
  it("answers unknown paths 404 without a stack trace", async () => {
    const { url } = await started();
    const missing = await fetch(`${url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toMatch(/at .*\.(js|ts):\d+/);
  });
});
