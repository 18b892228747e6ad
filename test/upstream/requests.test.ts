/** What goes on the wire: POST, form-urlencoded, the documented parameter names, api_key in the body. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamClient } from "../../src/upstream/client.js";
import { ENDPOINTS } from "../../src/upstream/endpoints.js";
import { UpstreamUnavailable } from "../../src/upstream/errors.js";
import { CALLS, validReply } from "./calls.js";
import { startServer, type TestServer } from "./server.js";

const KEY = "key with spaces & symbols=+/%";

describe("requests", () => {
  let server: TestServer;
  let client: UpstreamClient;

  beforeAll(async () => {
    server = await startServer(validReply);
    client = new UpstreamClient({ baseUrl: server.url, readRetries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("covers all 15 endpoints", () => {
    expect(new Set(CALLS.map((c) => c.path))).toEqual(new Set(Object.values(ENDPOINTS)));
  });

  for (const c of CALLS) {
    it(`${c.name} posts form fields to ${c.path}`, async () => {
      await c.call(client, KEY);
      const hit = server.hits.at(-1);
      expect(hit?.method).toBe("POST");
      expect(hit?.path).toBe(c.path);
      expect(hit?.contentType).toBe("application/x-www-form-urlencoded");
      expect(hit?.form).toEqual({ api_key: KEY, ...c.form });
      // Form encoding proper, not JSON or multipart.
      expect(hit?.raw.startsWith("api_key=key+with+spaces+%26+symbols%3D%2B%2F%25")).toBe(true);
    });
  }

  it("reuses keep-alive connections for sequential calls", async () => {
    const before = server.connections();
    for (let i = 0; i < 5; i++) await client.getProfile(KEY);
    expect(server.connections() - before).toBeLessThanOrEqual(1);
  });

  it("keeps a path prefix of the base URL", async () => {
    const prefixed = new UpstreamClient({ baseUrl: `${server.url}/api/`, readRetries: 0 });
    try {
      await prefixed.bankList(KEY);
      expect(server.hits.at(-1)?.path).toBe("/api/transfer/bank_list");
    } finally {
      await prefixed.close();
    }
  });

  it("refuses fractional or negative amounts before sending anything", async () => {
    const before = server.hits.length;
    await expect(
      client.createDeposit(KEY, { reffId: "D", amount: 100.5, type: "bank", method: "BCA" }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      client.createTransfer(KEY, { refId: "T", bankCode: "bca", accountNumber: "1", holderName: "A", amount: -1 }),
    ).rejects.toBeInstanceOf(RangeError);
    expect(server.hits.length).toBe(before);
  });

  // After close() a call fails as on a closed pool: UpstreamUnavailable "network", nothing sent.
  const CLOSED_POOL = expect.stringMatching(/^UND_ERR_(CLOSED|DESTROYED)$/);
  it("close() is idempotent: twice resolves, and later calls are refused without reaching the server", async () => {
    const used = new UpstreamClient({ baseUrl: server.url, readRetries: 0 });
    await used.getProfile(KEY); // its pool exists
    const unused = new UpstreamClient({ baseUrl: server.url, readRetries: 0 }); // its pool does not yet
    for (const c of [used, unused]) {
      await expect(c.close()).resolves.toBeUndefined();
      await expect(c.close()).resolves.toBeUndefined();
    }
    const before = server.hits.length;
    for (const c of [used, unused]) {
      const read = await c.getProfile(KEY).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(UpstreamUnavailable);
      expect(read).toMatchObject({ reason: "network", outcomeUnknown: false, endpoint: ENDPOINTS.profile });
      expect((read as UpstreamUnavailable).cause).toMatchObject({ code: CLOSED_POOL });
      const create = await c.createDeposit(KEY, { reffId: "D", amount: 1000, type: "bank", method: "BCA" }).catch((e: unknown) => e);
      expect(create).toBeInstanceOf(UpstreamUnavailable);
      expect(create).toMatchObject({ reason: "network", endpoint: ENDPOINTS.createDeposit });
      expect((create as UpstreamUnavailable).cause).toMatchObject({ code: CLOSED_POOL });
    }
    expect(server.hits.length).toBe(before);
  });
});
