/**
 * `npm run migrate-store -- --from <DATA_DIR> --to <postgres url>`: copies a file store into
 * PostgreSQL (src/store/pg/fromFiles.ts). The secret comes from STORE_SECRET or <DATA_DIR>/store-secret,
 * as for the bot. Prints counts on both sides; exits 1 if they differ, 2 on a usage or other error.
 * The URL's password is never printed.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { GENERATED_SECRET_FILE } from "../src/config/storeSecret.js";
import { copyFileStore } from "../src/store/pg/fromFiles.js";
import { maskUrl } from "../src/store/pg/pgStore.js";

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: "string" }, to: { type: "string" } } });
  const from = values.from ?? process.env.DATA_DIR;
  const to = values.to ?? process.env.STORE_URL;
  if (!from || !to || !/^postgres(ql)?:\/\//.test(to)) {
    say("Usage: npm run migrate-store -- --from <DATA_DIR> --to postgres://user:password@host:5432/db");
    return 2;
  }
  let secret = process.env.STORE_SECRET?.trim();
  if (!secret) {
    try {
      secret = (await readFile(join(from, GENERATED_SECRET_FILE), "utf8")).trim();
    } catch {
      say(`No STORE_SECRET and no ${join(from, GENERATED_SECRET_FILE)}: the store's secret is needed to check it matches.`);
      return 2;
    }
  }
  say(`Copying the file store in ${from} to ${maskUrl(to)}`);
  const r = await copyFileStore({ from, to, secret, log: say });
  say(`             files  database`);
  for (const k of ["chats", "txs", "meta", "flows", "docs", "logs", "walletEntries"] as const) say(`${k.padEnd(14)} ${String(r.files[k]).padStart(6)}  ${String(r.database[k]).padStart(8)}`);
  say(r.ok ? "Counts match." : "Counts DIFFER: check the database before switching the bot to it.");
  return r.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(`migrate-store failed: ${err instanceof Error ? err.message : String(err)}`.replace(/(:\/\/[^\s:/@]+:)[^\s@/]+@/g, "$1***@"));
    process.exit(2);
  },
);
