/**
 * The H2H callback sender sends one queued callback once per try: a look at the outbox that read it as
 * "due" while its send was still under way must not send it again once that send has been answered 2xx
 * and recorded (seen once on PostgreSQL, where the read and the "sent" write run on two connections).
 */
import { describe, expect, it } from "vitest";
import { H2hAccessKind, keyDigest } from "../../src/domain/h2hAccess.js";
import { silentLogger } from "../../src/logging/logger.js";
import { H2hCallbackKind } from "../../src/jobs/h2hCallbacks/outbox.js";
import { H2hCallbackSender } from "../../src/jobs/h2hCallbacks/sender.js";
import type { Store } from "../../src/store/index.js";
import { ManualClock } from "../../src/tools/clock.js";
import { openStore, tempDir } from "../store/helpers.js";

const OWNER = 5001;
const ANDI = 5002;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("H2H callback sender", () => {
  it("does not send a callback again when a look that read it as due ends after its send was recorded", async () => {
    const clock = new ManualClock();
    const real = await openStore(await tempDir());
    await real.createDoc(H2hAccessKind, {
      id: String(ANDI),
      owner: OWNER,
      state: "active",
      value: { enabled: true, keyDigest: keyDigest("k".repeat(40)), ips: ["127.0.0.1"], callbackUrl: "http://127.0.0.1:1/cb" },
    });
    await real.createDoc(H2hCallbackKind, {
      id: "T1.success",
      owner: OWNER,
      state: "due",
      value: { chat: ANDI, refId: "T1", body: '{"event":"transaksi"}', attempts: 0, nextAt: clock.now() },
    });

    // The second look's read is taken at once but answered only when the test says so.
    let lookCount = 0;
    const heldRead = deferred();
    const store = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === "listDocs") {
          return async (...args: Parameters<Store["listDocs"]>) => {
            const read = await target.listDocs(...args);
            if (++lookCount === 2) await heldRead.promise;
            return read;
          };
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });

    let posts = 0;
    const answer = deferred();
    const fetch = (async () => {
      posts++;
      await answer.promise;
      return new Response("{}", { status: 200 });
    }) as unknown as typeof globalThis.fetch;

    const sender = new H2hCallbackSender({ store, clock, logger: silentLogger, fetch });
    sender.start();
    await clock.advance(0);
    expect(posts).toBe(1);
    sender.poke(); // a second look starts while the first send waits for its answer
    await clock.advance(0);
    answer.resolve(); // the send is answered 2xx and recorded as sent
    await clock.advance(0);
    heldRead.resolve(); // the second look's stale read arrives
    await sender.whenIdle();
    await clock.advance(0);
    await sender.whenIdle();

    expect(posts).toBe(1);
    expect((await real.getDoc(H2hCallbackKind, "T1.success"))?.state).toBe("sent");
    await sender.stop();
  });
});
