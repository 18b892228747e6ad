/**
 * The bank list and the deposit methods, like the price lists: one malformed item is left out and
 * logged (index, code, reason; never the key), the rest still reach the reseller. Only a list with
 * no good item at all fails.
 */
import { afterEach, expect, it } from "vitest";
import { UpstreamClient } from "../../src/upstream/client.js";
import { ENDPOINTS } from "../../src/upstream/endpoints.js";
import { UpstreamUnexpected } from "../../src/upstream/errors.js";
import { startServer, type TestServer } from "./server.js";

const KEY = "lenient-key-5c2a";
let server: TestServer | undefined;
afterEach(() => server?.close());

async function clientAnswering(endpoint: string, data: unknown) {
  server = await startServer((hit) => (hit.path === endpoint ? { json: { status: true, message: "ok", data } } : { status: 404, body: "not found" }));
  const warnings: { obj: object; msg: string }[] = [];
  const client = new UpstreamClient({ baseUrl: server.url, readRetries: 0, logger: { warn: (obj, msg) => warnings.push({ obj, msg }) } });
  return { client, warnings };
}

const bank = (id: string, code: string) => ({ id, bank_code: code, bank_name: `Bank ${code}`, type: "bank" });
const method = (code: string) => ({ metode: code, type: "ewallet", name: code, min: "10000", max: "5000000", fee: "0", fee_persen: "0.7", status: "aktif" });

it("a bank list with one malformed bank: the other banks are offered and the bad one is logged", async () => {
  const { client, warnings } = await clientAnswering(ENDPOINTS.bankList, [bank("1", "bca"), { ...bank("2", "bri"), id: "" }, bank("3", "mandiri")]);
  expect((await client.bankList(KEY)).map((b) => b.code)).toEqual(["bca", "mandiri"]);
  await client.close();
  expect(warnings).toEqual([
    { msg: "list items skipped", obj: { type: "bank list", count: 1, skipped: [{ index: 1, code: "bri", problem: "id: expected a non-empty identifier" }] } },
  ]);
  expect(JSON.stringify(warnings)).not.toContain(KEY);
});

it("deposit methods with one malformed method: the others are offered and the bad one is logged", async () => {
  const { client, warnings } = await clientAnswering(ENDPOINTS.depositMethods, [method("QRIS"), { ...method("OVO"), min: "n/a" }, method("DANA")]);
  expect((await client.depositMethods(KEY)).map((m) => m.method)).toEqual(["QRIS", "DANA"]);
  await client.close();
  expect(warnings).toEqual([
    { msg: "list items skipped", obj: { type: "deposit methods", count: 1, skipped: [{ index: 1, code: "OVO", problem: "min: expected a numeric amount" }] } },
  ]);
});

it("a bank list where no bank parses still fails as an unexpected answer", async () => {
  const { client } = await clientAnswering(ENDPOINTS.bankList, [{ ...bank("1", "bca"), id: "" }]);
  await expect(client.bankList(KEY)).rejects.toBeInstanceOf(UpstreamUnexpected);
  await client.close();
});
