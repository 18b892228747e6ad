/**
 * sql.begin() that survives its connection dying while the callback runs. postgres.js (3.4.9) rejects
 * begin() as soon as the connection closes, yet still sends COMMIT (or ROLLBACK) once the callback
 * settles, on that closed connection: the write is deferred to a timer that throws a TypeError on its
 * null socket, uncaught, which ends the process (upstream issues #1154, #1208, fixes not released).
 * Here a callback that settles after its connection closed never hands its result back to the driver,
 * so nothing more is sent on that connection; the caller still gets begin()'s rejection.
 */
import type { Sql, TransactionSql } from "postgres";

const never = new Promise<never>(() => undefined);

export async function beginGuarded<T>(sql: Sql, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  let gone = false;
  const run = sql.begin(async (tx) => {
    try {
      return await fn(tx);
    } finally {
      // The driver rejects begin() in the same turn as the close, before any timer: one turn of the
      // event loop later `gone` says whether the connection is still there for COMMIT or ROLLBACK.
      await new Promise((resolve) => setImmediate(resolve));
      if (gone) await never; // held for good: a small closure per dead connection, never a crash
    }
  });
  try {
    return (await run) as T;
  } catch (err) {
    gone = true;
    throw err;
  }
}
