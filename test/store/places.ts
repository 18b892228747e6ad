/**
 * The places a store lives in for the contract suites (contract.test.ts, walletContract.test.ts): the
 * file store in a temp folder and PgStore on its own PostgreSQL database (skipped without PostgreSQL).
 * Each test file closes what it opened with `afterEach(closeOpened)`.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import postgres from "postgres";
import { expect } from "vitest";
import type { ManualClock } from "../../src/tools/clock.js";
import type { Store } from "../../src/store/api.js";
import { PgStore } from "../../src/store/pg/pgStore.js";
import { FileStore } from "../../src/store/file/fileStore.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { SECRET, tempDir } from "./helpers.js";

export interface Place {
  open(opts: { clock: ManualClock; secret?: string }): Promise<Store>;
  /** Everything the store wrote, as text: files, or every table's rows. */
  allText(): Promise<string>;
  /** PostgreSQL only: the database URL (a second process opens it too). */
  url?: string;
  /** Changes a stored transaction from outside (an operator, an older version): its status becomes one no version knows. */
  damageTx(refId: string): Promise<void>;
  /** Changes a stored document's value from outside (with the store closed) so that it no longer passes its kind's schema. */
  damageDoc(kind: string, id: string): Promise<void>;
  /** The same for a log entry. */
  damageLog(kind: string, owner: number, seq: number): Promise<void>;
}

const opened: Store[] = [];

/** Closes every store the tests opened. */
export async function closeOpened(): Promise<void> {
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => undefined)));
}

async function filePlace(): Promise<Place> {
  const dir = await tempDir();
  return {
    async open({ clock, secret = SECRET }) {
      const s = await FileStore.open({ dir, secret, clock });
      opened.push(s);
      return s;
    },
    async allText() {
      let text = "";
      for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (e.isFile()) text += await readFile(join(e.parentPath, e.name), "utf8");
      }
      return text;
    },
    async damageTx(refId) {
      const root = join(dir, "store");
      for (const name of await readdir(root)) {
        if (!name.startsWith("tx-")) continue;
        const file = JSON.parse(await readFile(join(root, name), "utf8")) as { txs: { refId: string; status: string }[] };
        const hit = file.txs.find((t) => t.refId === refId);
        if (!hit) continue;
        hit.status = "bogus";
        await writeFile(join(root, name), JSON.stringify(file));
        return;
      }
      throw new Error(`${refId} is in no shard`);
    },
    async damageDoc(kind, id) {
      const path = join(dir, "store", "docs", `${kind}.json`);
      const file = JSON.parse(await readFile(path, "utf8")) as { docs: { id: string; value: { amount: unknown } }[] };
      file.docs.find((d) => d.id === id)!.value.amount = "lots";
      await writeFile(path, JSON.stringify(file));
    },
    async damageLog(kind, owner, seq) {
      const path = join(dir, "store", "logs", `${kind}.jsonl`);
      const lines = (await readFile(path, "utf8")).split("\n").map((line) => {
        if (!line) return line;
        const e = JSON.parse(line) as { owner: number; seq: number; entry: { action: unknown } };
        if (e.owner === owner && e.seq === seq) e.entry.action = 42;
        return JSON.stringify(e);
      });
      await writeFile(path, lines.join("\n"));
    },
  };
}

async function pgPlace(): Promise<Place> {
  const url = await freshDatabase();
  return {
    url,
    async open({ clock, secret = SECRET }) {
      const s = await PgStore.open({ url, secret, clock, max: 4 });
      opened.push(s);
      return s;
    },
    async allText() {
      const sql = postgres(url, { max: 1 });
      try {
        const tables = await sql<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
        let text = "";
        for (const { tablename } of tables) {
          const rows = await sql.unsafe<{ t: string }[]>(`SELECT t::text AS t FROM "${tablename}" t`);
          text += rows.map((r) => r.t).join("\n");
        }
        return text;
      } finally {
        await sql.end();
      }
    },
    async damageTx(refId) {
      const sql = postgres(url, { max: 1 });
      try {
        const done = await sql`UPDATE txs SET data = jsonb_set(data::jsonb, '{status}', '"bogus"')::json WHERE ref_id = ${refId}`;
        expect(done.count).toBe(1);
      } finally {
        await sql.end();
      }
    },
    async damageDoc(kind, id) {
      const sql = postgres(url, { max: 1 });
      try {
        const done = await sql`UPDATE docs SET data = jsonb_set(data::jsonb, '{amount}', '"lots"')::json WHERE kind = ${kind} AND id = ${id}`;
        expect(done.count).toBe(1);
      } finally {
        await sql.end();
      }
    },
    async damageLog(kind, owner, seq) {
      const sql = postgres(url, { max: 1 });
      try {
        const done = await sql`
          UPDATE logs SET data = jsonb_set(data::jsonb, '{action}', '42')::json WHERE kind = ${kind} AND owner = ${owner} AND seq = ${seq}`;
        expect(done.count).toBe(1);
      } finally {
        await sql.end();
      }
    },
  };
}

export const stores = [
  { name: "file store", place: filePlace, skip: false },
  { name: "PgStore", place: pgPlace, skip: !hasPg },
];
