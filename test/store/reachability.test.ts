/** The gate in front of a PostgreSQL pool: a silent database is found within the deadline, then nothing is sent until a probe hears it. */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { PROMPT_DEADLINE_MS, Reachability } from "../../src/store/pg/reachability.js";
import { DatabaseUnreachableError } from "../../src/store/errors.js";

/** A database that is silent (a probe waits), refusing (a probe fails) or awake, as the test says. */
function database(state: "silent" | "refusing" | "awake" = "silent") {
  const waiting: (() => void)[] = [];
  let probes = 0;
  return {
    get probes() {
      return probes;
    },
    probe: () => {
      probes++;
      if (state === "refusing") return Promise.reject(new Error("connection refused"));
      return state === "silent" ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();
    },
    set(next: "silent" | "refusing" | "awake") {
      state = next;
      if (next === "awake") for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

const never = () => new Promise<never>(() => undefined);

describe("Reachability", () => {
  it("a query the database leaves unanswered is cut at the deadline; from then on queries are refused unsent, until a probe hears the database", async () => {
    const clock = new ManualClock();
    const db = database();
    const reach = new Reachability({ clock, probe: db.probe, probeEveryMs: 5000 });
    expect(reach.up).toBe(true);
    expect(reach.admit()).toBeUndefined();

    const read = reach.promptly(never());
    const outcome = read.then(() => "answered", (err: unknown) => err);
    await clock.advance(PROMPT_DEADLINE_MS - 1);
    expect(reach.up).toBe(true);
    await clock.advance(1);
    const err = await outcome;
    expect(err).toBeInstanceOf(DatabaseUnreachableError);
    expect((err as DatabaseUnreachableError).why).toBe("no answer");
    expect(reach.up).toBe(false);

    // Refused at once, without being sent, while the probe waits for an answer.
    await expect(reach.admit()).rejects.toMatchObject({ why: "not sent" });
    // A probe went out at once; it waits for the silent database, and no other piles up behind it.
    expect(db.probes).toBe(1);
    await clock.advance(60_000);
    expect(db.probes).toBe(1);
    expect(reach.up).toBe(false);

    db.set("awake");
    await clock.advance(0);
    expect(reach.up).toBe(true);
    expect(reach.admit()).toBeUndefined();
  });

  it("a slow query on a database that answers others is not cut", async () => {
    const clock = new ManualClock();
    const reach = new Reachability({ clock, probe: database().probe, probeEveryMs: 5000 });
    let resolveSlow!: (v: string) => void;
    const slow = reach.promptly(new Promise<string>((resolve) => (resolveSlow = resolve)));
    for (let i = 0; i < 5; i++) {
      await clock.advance(PROMPT_DEADLINE_MS / 2);
      reach.answered(); // another query's answer
    }
    expect(reach.up).toBe(true);
    resolveSlow("rows");
    await expect(slow).resolves.toBe("rows");
  });

  it("an error the database answers with is the caller's, and the database stays reachable", async () => {
    const clock = new ManualClock();
    const reach = new Reachability({ clock, probe: database().probe, probeEveryMs: 5000 });
    const refused = new Error("duplicate key");
    await expect(reach.promptly(Promise.reject(refused))).rejects.toBe(refused);
    expect(reach.up).toBe(true);
  });

  it("a refused connection makes it unreachable at once; a probe every probeEveryMs opens the gate once the database answers", async () => {
    const clock = new ManualClock();
    const db = database("refusing");
    const reach = new Reachability({ clock, probe: db.probe, probeEveryMs: 5000 });
    reach.lost();
    await clock.advance(0);
    expect(reach.up).toBe(false);
    expect(db.probes).toBe(1);
    await clock.advance(5000);
    expect(db.probes).toBe(2);
    expect(reach.up).toBe(false);
    // A query meanwhile sends a probe of its own, and is refused when it fails.
    await expect(reach.admit()).rejects.toMatchObject({ why: "not sent" });
    expect(db.probes).toBe(3);
    db.set("awake");
    await clock.advance(5000);
    expect(db.probes).toBe(4);
    expect(reach.up).toBe(true);
    expect(reach.admit()).toBeUndefined();
  });

  it("the first query after the database came back is let through by a probe of its own, not refused until the next round", async () => {
    const clock = new ManualClock();
    const db = database("refusing");
    const reach = new Reachability({ clock, probe: db.probe, probeEveryMs: 5000 });
    reach.lost();
    await clock.advance(0);
    expect(reach.up).toBe(false);
    db.set("awake");
    await expect(reach.admit()).resolves.toBeUndefined();
    expect(reach.up).toBe(true);
  });
});
