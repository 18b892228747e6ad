/**
 * A connection that closes while a small write of ours waits for its turn (the database killing every
 * session at once, a query sent from the close of another) must not leave the next connection hanging:
 * postgres.js keeps the stale write and its timer, and would hold the next startup message behind them
 * until connect_timeout (what the chaos run's PostgreSQL seed met: the lead's start-up and the store's
 * probe waiting 5-10 s of real time while the database was back). startup.ts pads the startup message
 * so it is written at once, stale bytes and all: the server refuses them and the driver reconnects clean.
 */
import net from "node:net";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { startupParams } from "../../src/store/pg/startup.js";
import { freshDatabase, hasPg } from "../support/pg.js";

const opened: { end(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.end();
});

const CONNECT_TIMEOUT_S = 3;

describe.skipIf(!hasPg)("a connection closed with a write pending", () => {
  it("the next query on the pool answers at once, not after connect_timeout; the server shows the name", async () => {
    const url = await freshDatabase();
    const { hostname, port } = new URL(url);
    const sockets: net.Socket[] = [];
    const sql = postgres(url, {
      max: 2,
      connect_timeout: CONNECT_TIMEOUT_S,
      fetch_types: false,
      onnotice: () => undefined,
      connection: startupParams("ppob-bot"),
      // The pool's sockets, so the test can close both in one turn as a killed database does
      // (a documented option the type declarations lack).
      ...({
        socket: () => {
          const s = net.connect(Number(port), hostname);
          sockets.push(s);
          return s;
        },
      } as object),
    });
    opened.push({ end: () => sql.end({ timeout: 1 }) });
    await Promise.all([sql`SELECT pg_sleep(0.05)`, sql`SELECT pg_sleep(0.05)`]);
    expect(sockets).toHaveLength(2);

    // Whichever socket's close comes first sends a query: the pool gives it to the other connection,
    // still open for the driver, whose own close comes in the same turn with that write pending.
    let sentOnClose: Promise<unknown> | undefined;
    for (const s of sockets) s.once("close", () => (sentOnClose ??= sql`SELECT 1`.catch((err: unknown) => err)));
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sentOnClose).toBeInstanceOf(Error); // its connection closed under it: a rejection, fine

    const started = Date.now();
    const answers = await Promise.all([sql`SELECT 2 AS n`, sql`SELECT 2 AS n`]);
    expect(answers.map((rows) => rows[0]!.n)).toEqual([2, 2]);
    expect(Date.now() - started).toBeLessThan((CONNECT_TIMEOUT_S * 1000) / 2);
    const [row] = await sql<{ name: string }[]>`SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()`;
    expect(row!.name.trimEnd()).toBe("ppob-bot");
  });
});
