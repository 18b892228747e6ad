/** What only the PostgreSQL store has: migrations at open, and a database that goes away and comes back. */
import { Socket } from "node:net";
import postgres from "postgres";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { migrate, MIGRATIONS, StoreSchemaError } from "../../src/store/pg/migrations.js";
import { maskUrl, PgStore, type PgStoreOptions } from "../../src/store/pg/pgStore.js";
import { PROMPT_DEADLINE_MS } from "../../src/store/pg/reachability.js";
import { DatabaseUnreachableError } from "../../src/store/errors.js";
import { freshDatabase, hasPg, pgUrl } from "../support/pg.js";
import { freezableDatabase } from "../support/pgFreeze.js";
import { SECRET } from "./helpers.js";

const stores: PgStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
});

async function open(url: string, opts: Partial<PgStoreOptions> = {}): Promise<PgStore> {
  const s = await PgStore.open({ url, secret: SECRET, clock: new ManualClock(), max: 2, ...opts });
  stores.push(s);
  return s;
}

async function admin<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

describe("maskUrl", () => {
  it("hides the password of a database URL", () => {
    expect(maskUrl("postgres://bot:s3cr3t-pw@db.example.com:5432/ppob")).toBe("postgres://bot:***@db.example.com:5432/ppob");
    expect(maskUrl("postgres://bot@127.0.0.1/x")).toBe("postgres://bot@127.0.0.1/x");
    expect(maskUrl("not a url s3cr3t")).not.toContain("s3cr3t");
  });
});

describe.skipIf(!hasPg)("PgStore migrations", () => {
  it("run once: a second open and two processes starting together apply nothing twice", async () => {
    const url = await freshDatabase();
    await Promise.all([open(url), open(url), open(url)]);
    await open(url);
    const versions = await admin(url, (sql) => sql<{ version: number }[]>`SELECT version FROM schema_migrations ORDER BY version`);
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(await admin(url, (sql) => migrate(sql))).toBe(0);
    // A later migration is applied on the next open, once.
    expect(await admin(url, (sql) => migrate(sql, [...MIGRATIONS, "CREATE TABLE extra (n int)"]))).toBe(1);
    expect(await admin(url, (sql) => migrate(sql, [...MIGRATIONS, "CREATE TABLE extra (n int)"]))).toBe(0);
  });

  it("refuses a database migrated by a newer version of the bot, and changes nothing", async () => {
    const url = await freshDatabase();
    const s = await open(url);
    await s.updateChat(1, { lang: "id" });
    await admin(url, (sql) => sql`INSERT INTO schema_migrations (version) VALUES (${MIGRATIONS.length + 1})`);
    const err = await open(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreSchemaError);
    expect(String(err)).toMatch(/newer version of the bot/);
    expect((await s.getChat(1))?.lang).toBe("id");
  });
});

describe.skipIf(!hasPg)("PgStore when the database goes away", () => {
  it("a money write rejects, canPersist is false and onError told; a ping on the clock clears it once the database is back", async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    const clock = new ManualClock();
    const errors: unknown[] = [];
    const writes: [string, boolean][] = [];
    const s = await open(url, { clock, onError: (e) => errors.push(e), onWrite: (n, ok) => writes.push([n, ok]), pingEveryMs: 5000 });
    await s.createTx({ refId: "R1", chatId: 1, kind: "prepaid", status: "draft", amount: 10_000 });
    expect(s.canPersist()).toBe(true);
    expect(writes).toEqual([["txs", true]]);

    await admin(pgUrl, async (sql) => {
      await sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
    });
    await expect(s.transitionTx("R1", ["draft"], { status: "sending" })).rejects.toThrow();
    expect(s.canPersist()).toBe(false);
    expect(errors.length).toBeGreaterThan(0);
    expect(writes.at(-1)).toEqual(["txs", false]);
    await expect(s.setMeta("k", 1)).rejects.toThrow();
    // Still down: a ping does not clear it.
    await clock.advance(5000);
    expect(await s.ping()).toBe(false);
    expect(s.canPersist()).toBe(false);

    await admin(pgUrl, (sql) => sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    // No write needed: the next ping on the clock finds the database back.
    // (Real time passes too: a reconnect under load can take a while; each round moves the clock to the next ping.)
    await vi.waitFor(
      async () => {
        await clock.advance(5000);
        expect(s.canPersist()).toBe(true);
      },
      { timeout: 15_000, interval: 200 },
    );
    // Nothing was half-done: the draft is still a draft, and the change goes through now.
    expect((await s.getTx("R1"))?.status).toBe("draft");
    expect((await s.transitionTx("R1", ["draft"], { status: "sending" }))?.status).toBe("sending");
  });

  it("a read that cannot reach the database makes canPersist false too, until a ping finds it back", async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    const clock = new ManualClock();
    const s = await open(url, { clock, pingEveryMs: 5000 });
    await admin(pgUrl, async (sql) => {
      await sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
    });
    await expect(s.getChat(1)).rejects.toThrow();
    // Money actions check canPersist before they start: they refuse now, not at their first write.
    expect(s.canPersist()).toBe(false);
    await admin(pgUrl, (sql) => sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    await vi.waitFor(
      async () => {
        await clock.advance(5000);
        expect(s.canPersist()).toBe(true);
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(await s.getChat(1)).toBeUndefined();
  });
});

describe.skipIf(!hasPg)("PgStore when the database stops answering", () => {
  it("a prompt read is cut at the deadline, then every query fails at once, unsent; a write already sent is never cut: its outcome arrives when the database answers", async () => {
    const db = await freezableDatabase(await freshDatabase());
    const clock = new ManualClock();
    try {
      const s = await open(db.url, { clock, pingEveryMs: 5000 });
      await s.createTx({ refId: "R1", chatId: 1, kind: "prepaid", status: "draft", amount: 10_000 });
      db.freeze();
      let created: string | undefined;
      const sent = s.createTx({ refId: "R2", chatId: 1, kind: "prepaid", status: "draft", amount: 10_000 }).then(
        (tx) => (created = tx.refId),
        (err: unknown) => (created = String(err)),
      );
      const read = s.getChat(1, { promptly: true }).catch((err: unknown) => err);
      await clock.advance(PROMPT_DEADLINE_MS);
      expect(await read).toBeInstanceOf(DatabaseUnreachableError);
      expect(s.canPersist()).toBe(false);
      // Refused before being sent: nothing of it can land later.
      await expect(s.setMeta("k", 1)).rejects.toMatchObject({ why: "not sent" });
      await expect(s.transitionTx("R1", ["draft"], { status: "sending" })).rejects.toMatchObject({ why: "not sent" });
      await expect(s.getTx("R1")).rejects.toBeInstanceOf(DatabaseUnreachableError);
      // The write sent before is waited for, however long: its outcome is not guessed.
      await clock.advance(60_000);
      expect(created).toBeUndefined();

      db.thaw();
      await sent;
      expect(created).toBe("R2");
      await vi.waitFor(
        async () => {
          await clock.advance(5000);
          expect(s.canPersist()).toBe(true);
        },
        { timeout: 15_000, interval: 50 },
      );
      expect((await s.getTx("R1"))?.status).toBe("draft");
      expect(await s.getMeta("k")).toBeUndefined();
    } finally {
      db.thaw();
      await Promise.all(stores.splice(0).map((st) => st.close().catch(() => undefined)));
      await db.close();
    }
  });
});

describe.skipIf(!hasPg)("PgStore.close", () => {
  it("lets a write already sent finish, then ends its sessions", async () => {
    const db = await freezableDatabase(await freshDatabase());
    try {
      const s = await open(db.url);
      await s.createTx({ refId: "R1", chatId: 1, kind: "prepaid", status: "draft", amount: 10_000 });
      db.freeze();
      const sent = s.createTx({ refId: "R2", chatId: 1, kind: "prepaid", status: "draft", amount: 10_000 }).then(
        (tx) => tx.refId,
        (err: unknown) => String(err),
      );
      await vi.waitFor(() => expect(s.queriesInFlight()).toBeGreaterThan(0));
      const closed = s.close();
      setTimeout(() => db.thaw(), 50); // the database answers while close() waits
      await closed;
      expect(await sent).toBe("R2");
      const rows = await admin(db.url, (sql) => sql<{ ref_id: string }[]>`SELECT ref_id FROM txs ORDER BY ref_id`);
      expect(rows.map((r) => r.ref_id)).toEqual(["R1", "R2"]);
      await vi.waitFor(async () => {
        const [row] = await admin(pgUrl, (sql) => sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${new URL(db.url).pathname.slice(1)}`);
        expect(row!.n).toBe(0);
      }, { timeout: 10_000, interval: 20 });
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!hasPg)("PgStore round trips of a wallet's hold", () => {
  /** Times the store waited on the server during `fn` (the driver sends a turn's queries in one write). */
  async function roundTrips(fn: () => Promise<unknown>): Promise<number> {
    const write = vi.spyOn(Socket.prototype, "write");
    try {
      await fn();
      return write.mock.calls.length;
    } finally {
      write.mockRestore();
    }
  }

  it("a downline's claim and its failure's release wait on the server as often as an owner's claim: the read, then one statement", async () => {
    const s = await open(await freshDatabase());
    await s.postEntries([{ ref: "A1", wallet: 201, owner: 100, amount: 50_000, kind: "adjust", reason: "cash", by: 100 }]);
    const draft = { chatId: 100, kind: "prepaid", status: "draft", amount: 9_000, code: "S10", target: "0812" } as const;
    // Warmed up first: the driver prepares each statement once per connection.
    for (let i = 0; i < 4; i++) {
      await s.createTx({ ...draft, refId: `O${i}` });
      await s.createTx({ ...draft, refId: `D${i}`, by: 201, wallet: { chat: 201, price: 10_000, state: "draft" } });
    }
    const trips = [];
    for (let i = 0; i < 4; i++) {
      const owner = await roundTrips(() => s.transitionTx(`O${i}`, ["draft"], { status: "sending" }));
      const downline = await roundTrips(() => s.transitionTx(`D${i}`, ["draft"], { status: "sending", wallet: { chat: 201, price: 10_000, state: "held" } }));
      const release = await roundTrips(() => s.transitionTx(`D${i}`, ["sending"], { status: "failed" }));
      trips.push({ owner, downline, release });
    }
    expect(trips.at(-1)).toEqual({ owner: 2, downline: 2, release: 2 });
    expect(await s.getTx("D3")).toMatchObject({ status: "failed", wallet: { state: "released" } });
    expect(await s.wallet(201)).toMatchObject({ balance: 50_000, held: 0 });
  });
});
