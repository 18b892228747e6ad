/**
 * H2H callbacks (docs/h2h.md "Callbacks"): when an H2H sale's outcome is known, Andi's system is told
 * at its callback URL with the provider's callback body (its reff_id, its price), the provider's
 * signature and an HMAC of the body; retried until a 2xx, the same bytes each time, kept across a
 * restart. Andi's chat gets no Telegram notice of it.
 */
import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { H2hCallbackKind } from "../../src/jobs/h2hCallbacks/outbox.js";
import { h2hRef } from "../../src/money/h2hSales.js";
import type { UpstreamClient } from "../../src/upstream/client.js";
import { run } from "../jobs/support.js";
import type { World } from "../support/world.js";
import { ANDI, GOLD_MARKUP, h2hWorld, type H2hWorld, RINA } from "./support.js";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let h: H2hWorld;
let w: World;
let key: string;
let client: UpstreamClient;
let receiver: Server;
let receiverUrl: string;
let received: Received[];
/** What the receiver answers next (then 200). */
let answers: number[];

beforeEach(async () => {
  received = [];
  answers = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answers.shift() ?? 200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;

  h = await h2hWorld({ watcher: true, funds: 100_000 });
  ({ w, key, client } = h);
});

afterEach(async () => {
  await h.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const outbox = () => w.store.listDocs(H2hCallbackKind, {});

async function priceOf(code: string): Promise<number> {
  return (await w.upstream.prepaidPriceList(w.demoKey, code)).find((p) => p.code === code)!.price + GOLD_MARKUP;
}

/** Time passes until the watcher has settled what the sandbox settled, then real I/O to the receiver finishes. */
async function settle(ms = 60_000): Promise<void> {
  await run(w, ms);
}

/** The clock a second at a time, the sender's sends (real I/O) finished at each step. */
async function step(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    await w.app.h2hCallbacks.whenIdle();
    await w.clock.advance(1000);
  }
  await w.app.h2hCallbacks.whenIdle();
}

/** A second at a time until the sale of that reff_id is final (its callback is queued in that step). */
async function untilFinal(reffId: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const tx = await w.store.getTx(h2hRef("prepaid", ANDI, reffId));
    if (tx && ["success", "failed"].includes(tx.status)) return;
    await run(w, 1000);
  }
  throw new Error(`${reffId} never settled`);
}

describe("H2H callbacks to the downline's system", () => {
  it("POSTs the provider's callback body with both signatures when a purchase succeeds; no Telegram notice to the downline", async () => {
    await w.app.h2hAccess.setCallbackUrl(ANDI, receiverUrl);
    const price = await priceOf("S10");
    const tx = await client.createTransaction(key, { code: "S10", reffId: "ANDI-1", target: "081234567890" });
    expect(tx.status).toBe("pending");
    await settle();
    await step(0);
    expect(received).toHaveLength(1);

    const cb = received[0]!;
    expect(JSON.parse(cb.body)).toMatchObject({
      event: "transaksi",
      status: "success",
      data: { id: tx.id, reff_id: "ANDI-1", code: "S10", target: "081234567890", price: String(price), status: "success" },
    });
    expect(cb.headers["x-atl-signature"]).toBe(callbackSignature(`dl${ANDI}`));
    const secret = createHash("sha256").update(key).digest("hex");
    expect(cb.headers["x-h2h-signature"]).toBe(createHmac("sha256", secret).update(cb.body).digest("hex"));
    // The status endpoint says the same (what a provider client checks a callback against).
    expect(await client.prepaidStatus(key, "ANDI-1")).toMatchObject({ status: "success", price });
    expect((await outbox()).map((d) => d.state)).toEqual(["sent"]);
    expect(w.fake.sentTo(ANDI)).toHaveLength(0);
    // The owner asked for no copy (the /staf default).
    expect(w.fake.sentTo(RINA)).toHaveLength(0);
    // Nothing more goes out later.
    await settle(3_600_000);
    expect(received).toHaveLength(1);
  });

  it("tries again with backoff until a 2xx, with the same body and ids each time", async () => {
    await w.app.h2hAccess.setCallbackUrl(ANDI, receiverUrl);
    answers = [500, 503];
    await client.createTransaction(key, { code: "S10", reffId: "ANDI-F", target: "081234560000" });
    await untilFinal("ANDI-F");
    await step(0);
    expect((await outbox())[0]?.value.attempts).toBe(1);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: "transaksi", status: "failed", data: { reff_id: "ANDI-F", status: "failed" } });
    // 10 s later the second try, a minute after that the third, which is answered 200.
    await step(9_000);
    expect(received).toHaveLength(1);
    await step(1_000);
    expect(received).toHaveLength(2);
    await step(59_000);
    expect(received).toHaveLength(2);
    await step(1_000);
    expect((await outbox())[0]?.state).toBe("sent");
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(w.fake.sentTo(ANDI)).toHaveLength(0);
  });

  it("keeps a callback not yet answered across a restart and sends it after", async () => {
    await w.app.h2hAccess.setCallbackUrl(ANDI, receiverUrl);
    answers = [500];
    await client.createTransaction(key, { code: "S10", reffId: "ANDI-R", target: "081234567891" });
    await untilFinal("ANDI-R");
    await step(0);
    expect((await outbox())[0]?.value.attempts).toBe(1);
    const first = received[0]!.body;
    await w.restart();
    await w.app.start();
    await step(10_000);
    expect((await outbox())[0]?.state).toBe("sent");
    expect(received.map((r) => r.body)).toEqual([first, first]);
  });

  it("tells the owner too when the owner asked for its sellers' notices (/staf), as for any sale made for it", async () => {
    await w.app.h2hAccess.setCallbackUrl(ANDI, receiverUrl);
    await w.app.deps.staff.choose(RINA, { ownerNotices: true });
    const tx = await client.createTransaction(key, { code: "S10", reffId: "ANDI-O", target: "081234567893" });
    await untilFinal("ANDI-O");
    await step(0);
    expect(received).toHaveLength(1);
    const toRina = w.fake.sentTo(RINA).map((c) => w.fake.textOf(c) ?? "");
    expect(toRina.filter((t) => t.includes(tx.id))).toHaveLength(1);
    expect(w.fake.sentTo(ANDI)).toHaveLength(0);
  });

  it("without a callback URL queues nothing and still sends the downline's chat no notice", async () => {
    await client.createTransaction(key, { code: "S10", reffId: "ANDI-N", target: "081234567892" });
    await settle();
    expect(await outbox()).toHaveLength(0);
    expect((await client.prepaidStatus(key, "ANDI-N")).status).toBe("success");
    expect(w.fake.sentTo(ANDI)).toHaveLength(0);
  });
});
