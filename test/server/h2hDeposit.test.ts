/**
 * Deposits over H2H (docs/h2h.md "Deposits"), over HTTP with the bot's own provider client: Andi's
 * system makes a QRIS deposit, made with Rina's key as a deposit record of Andi's wallet (the same
 * record as his /deposit), credited once when paid; status and cancel answer it; the instant release
 * (the owner's fee) is refused.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import type { UpstreamClient } from "../../src/upstream/client.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";
import type { World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { ANDI, h2hWorld, type H2hWorld, RINA } from "../h2h/support.js";

const MIN = 60_000;

let h: H2hWorld;
let w: World;
let key: string;
let client: UpstreamClient;

beforeEach(async () => {
  h = await h2hWorld({ watcher: true });
  ({ w, key, client } = h);
});
afterEach(async () => {
  await h.close();
});

async function refusal(p: Promise<unknown>): Promise<UpstreamRejected> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UpstreamRejected);
  return err as UpstreamRejected;
}

it("makes a QRIS deposit with the owner's key, once per reff_id, credited to the wallet once when paid", async () => {
  const dep = await client.createDeposit(key, { reffId: "D1", amount: 50_000, type: "ewallet", method: "qris" });
  expect(dep).toMatchObject({ reffId: "D1", amount: 50_000, status: "pending" });
  expect(dep.qrString).toBeTruthy();
  const again = await client.createDeposit(key, { reffId: "D1", amount: 50_000, type: "ewallet", method: "qris" });
  expect(again.id).toBe(dep.id);
  const creates = w.sandbox.calls("/deposit/create");
  expect(creates).toHaveLength(1);
  expect(creates[0]!.body).toMatchObject({ api_key: w.demoKey, nominal: "50000" });
  const record = (await w.store.getTx(dep.id))!;
  const credit = record.wallet?.credit ?? 0;
  expect(credit).toBeGreaterThan(0);
  expect(record).toMatchObject({ kind: "deposit", chatId: RINA, by: ANDI, clientRef: "D1", wallet: { chat: ANDI, state: "draft", price: 0 } });
  expect((await client.depositStatus(key, "D1")).id).toBe(dep.id);

  w.sandbox.payDeposit(record.upstreamId!);
  await run(w, 30 * MIN);
  await w.app.deps.wallets.idle();
  // Paid is success for the downline: its wallet is credited then (the provider's H+1 is the owner's).
  expect((await client.depositStatus(key, dep.id)).status).toBe("success");
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: credit, held: 0, available: credit });
  await run(w, 30 * MIN);
  expect((await w.app.deps.wallets.entries(ANDI)).filter((e) => e.kind === "deposit")).toHaveLength(1);
  // The instant release spends the owner's fee: refused, nothing asked of the provider.
  expect((await refusal(client.instantDeposit(key, { id: dep.id, action: true }))).providerCode).toBe(403);
  expect(w.sandbox.calls("/deposit/instant")).toHaveLength(0);
});

it("cancels a deposit not yet paid; an unknown one is not found", async () => {
  const dep = await client.createDeposit(key, { reffId: "D2", amount: 20_000, type: "ewallet", method: "qris" });
  const cancelled = await client.cancelDeposit(key, dep.id);
  expect(cancelled.status).toBe("cancel");
  expect((await w.store.getTx(dep.id))!.status).toBe("cancel");
  expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(1);
  expect((await refusal(client.depositStatus(key, "NOPE"))).providerCode).toBe(404);
  // Only QRIS over H2H.
  expect((await refusal(client.createDeposit(key, { reffId: "D3", amount: 20_000, type: "bank", method: "bca" }))).providerCode).toBe(422);
});
