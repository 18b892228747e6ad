/**
 * The file store checks each wallet entry's running balance against the sum of the wallet's entries when
 * it opens (docs/wallets.md "Accounts and entries"): a line edited by hand is reported, and the sum counts.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { WALLETS_FILE } from "../../src/store/file/wallets.js";
import { ManualClock } from "../../src/tools/clock.js";
import { openStore, tempDir } from "./helpers.js";

it("reports a running balance that is not the sum of the wallet's entries, and counts the sum", async () => {
  const dir = await tempDir();
  const s = await openStore(dir, { clock: new ManualClock() });
  await s.postEntries([{ ref: "A1", wallet: 201, owner: 100, amount: 30_000, kind: "adjust", reason: "cash", by: 100 }]);
  await s.postEntries([{ ref: "A2", wallet: 201, owner: 100, amount: -10_000, kind: "adjust", reason: "fix", by: 100 }]);
  const path = join(s.path, WALLETS_FILE);
  await s.close();

  const clean: string[] = [];
  const again = await openStore(dir, { clock: new ManualClock(), onWarning: (m) => clean.push(m) });
  expect(clean).toEqual([]);
  expect(await again.wallet(201)).toMatchObject({ balance: 20_000 });
  await again.close();

  // The second line's running balance edited by hand.
  const text = await readFile(path, "utf8");
  await writeFile(path, text.replace('"balance":20000', '"balance":25000'));
  const warnings: string[] = [];
  const third = await openStore(dir, { clock: new ManualClock(), onWarning: (m) => warnings.push(m) });
  expect(warnings.join("\n")).toContain("wallet 201's running balance 25000 is not the sum of its entries (20000)");
  expect(await third.wallet(201)).toMatchObject({ balance: 20_000 });
  await third.close();
});
