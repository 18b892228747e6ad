/**
 * An H2H purchase down a chain of downlines (docs/h2h.md, docs/wallets.md "Prices" 4, "Commission" 5),
 * over HTTP: Budi, invited by Andi (Rina's Gold downline), buys over H2H at Andi's price plus Andi's
 * markup, as his bot's confirm screen would; once it succeeds Budi's wallet is debited once and Andi's
 * credited his markup once.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import type { UpstreamClient } from "../../src/upstream/client.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { ANDI, fundWallet, GOLD_MARKUP, grantH2h, h2hClient, RINA, rinaAndAndi } from "../h2h/support.js";

const BUDI = 5003;
/** A downline's default markup for its own downlines. */
const DOWNLINE_MARKUP = 500;

let w: World;
let client: UpstreamClient;

beforeEach(async () => {
  w = await makeWorld({ env: { HTTP_PORT: "0" }, watcher: true });
  await w.app.start();
  await rinaAndAndi(w);
  const { network } = w.app.deps;
  await network.change(RINA, ANDI, { mayInvite: true });
  const below = await network.invite(RINA, 1, ANDI);
  if (typeof below === "string") throw new Error(below);
  expect(await network.join(below.token, { chat: BUDI, name: "Budi", ownsKey: false })).toMatchObject({ upline: ANDI });
  client = h2hClient(w);
});
afterEach(async () => {
  await client.close();
  await w.close();
});

it("a sub-downline's H2H purchase debits its chain price once and credits its upline's commission once", async () => {
  const key = await grantH2h(w, BUDI);
  await fundWallet(w, BUDI, 30_000, "F1");
  const cost = (await w.upstream.prepaidPriceList(w.demoKey, "S10")).find((p) => p.code === "S10")!.price;
  const budiPrice = cost + GOLD_MARKUP + DOWNLINE_MARKUP;

  expect((await client.prepaidPriceList(key, "S10"))[0]!.price).toBe(budiPrice);
  const refused = await client.createTransaction(key, { code: "S10", reffId: "BUDI-0", target: "081234567890", limitPrice: budiPrice - 1 }).catch((e: unknown) => e);
  expect(refused).toMatchObject({ providerCode: 422 });
  const bought = await client.createTransaction(key, { code: "S10", reffId: "BUDI-1", target: "081234567890" });
  expect(bought.price).toBe(budiPrice);
  await client.createTransaction(key, { code: "S10", reffId: "BUDI-1", target: "081234567890" });

  await run(w, 10_000);
  await w.app.deps.wallets.idle();
  await w.app.deps.wallets.reconcile();
  expect((await client.prepaidStatus(key, "BUDI-1")).status).toBe("success");
  expect(await w.app.deps.wallets.view(BUDI)).toEqual({ balance: 30_000 - budiPrice, held: 0, available: 30_000 - budiPrice });
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: DOWNLINE_MARKUP, held: 0, available: DOWNLINE_MARKUP });
  expect((await w.app.deps.wallets.entries(ANDI)).filter((e) => e.kind === "commission")).toHaveLength(1);
  expect((await w.app.deps.wallets.entries(BUDI)).filter((e) => e.kind === "purchase")).toHaveLength(1);
});
