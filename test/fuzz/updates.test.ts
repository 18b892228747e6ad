/**
 * A deterministic fuzz (fixed seed): 3,000 updates of random text, forged and random callback data,
 * real buttons and steps inside real flows, sent to a whole world. No handler may fail (no error
 * line in the log) and every callback query is answered exactly once.
 */
import type { Update } from "grammy/types";
import { afterEach, expect, it } from "vitest";
import { commands } from "../../src/telegram/commands.js";
import { createLogger } from "../../src/logging/logger.js";
import { Rng } from "../../src/sandbox/rng.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";

const SEED = 20261123;
const UPDATES = 3000;
// Every command name the bot answers, in both languages (the one table), plus names it does not know.
const COMMANDS = [...Object.values(commands).flat(), "help", "tidakada"];
const ARGS = ["", "S10 081234567890", "S10", "PLN50 530112345678", "tsel 10", "TP0000000000", "<b>", "&amp;", "__proto__", "9".repeat(40)];
const ANSWERS = ["081234567890", "530112340002", "50000", "50rb", "100.000", "BCA", "qris", "1234567890", "ok", "-1", "0", "<i>x</i>", "constructor", "toString"];
const FORGED = ["menu:__proto__", "menu:valueOf", "menu:constructor", "menu:", "st:", "st:__proto__", "ok:", "ok:TP1", "no:", "rt:", "dp:i:", "dp:x:", "dp:r:__proto__", "pr:h:i:__proto__", "pr:b:i:", "cancel", "al:", "hs:", ":", ""];
let w: World;
afterEach(() => w?.close());

it(`${UPDATES} random and forged updates: 0 handler errors, every callback query answered once`, async () => {
  const lines: string[] = [];
  const logger = createLogger("warn", { write: (line: string) => void lines.push(line) });
  w = await makeWorld({ logger, sandbox: { settleMs: 60_000 } });
  w.deps.logger.error("probe");
  expect(lines.splice(0)).toHaveLength(1); // the capture works: the app logs into `lines`
  const rng = new Rng(SEED);
  const users: FakeUser[] = [];
  for (let i = 0; i < 4; i++) users.push(await w.linkedUser({ languageCode: i % 2 ? "en" : "id" }));
  users.push(w.user({ languageCode: "id" })); // not linked
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]!;
  const thrown: string[] = [];
  const queries = new Set<string>();
  let n = 0;

  const forged = (u: FakeUser, data: string): Update => {
    const last = w.fake.messages(u.chatId).filter((m) => m.from === "bot").at(-1);
    const id = `fz${++n}`;
    queries.add(id);
    return {
      update_id: w.fake.nextUpdateId(),
      callback_query: { id, from: u.user, chat_instance: "1", data, ...(last ? { message: last.message } : {}) },
    } as Update;
  };
  const randomText = (max: number) => rng.text(rng.int(0, max), "abcXYZ019 <>&\"';:/_-.\n😀é");

  for (let i = 0; i < UPDATES; i++) {
    const u = pick(users);
    const r = rng.next();
    try {
      if (r < 0.2) await u.sendText(randomText(120));
      else if (r < 0.35) await u.sendCommand(pick(COMMANDS), pick(ARGS));
      else if (r < 0.5) await u.sendText(pick(ANSWERS));
      else if (r < 0.65) await u.deliver(forged(u, rng.next() < 0.6 ? pick(FORGED) + (rng.next() < 0.5 ? rng.text(rng.int(0, 12)) : "") : randomBytes(rng)));
      else if (r < 0.97) {
        // A real button of the newest keyboard (URL buttons cannot be pressed).
        const labels = u.buttons().filter((l) => {
          const b = u.findButton(l)?.button;
          return b !== undefined && "callback_data" in b;
        });
        if (labels.length === 0) continue;
        const update = u.callbackUpdate(pick(labels));
        queries.add(update.callback_query!.id);
        await u.deliver(update);
      } else await w.clock.advance(rng.int(0, 30_000));
    } catch (err) {
      thrown.push(String(err).slice(0, 300));
    }
  }
  const errors = lines.filter((l) => /"level":"(error|fatal)"/.test(l)).map((l) => l.slice(0, 400));
  expect(thrown).toEqual([]);
  expect(errors).toEqual([]);
  const answers = new Map<string, number>();
  for (const c of w.fake.callsOf("answerCallbackQuery")) {
    const id = String(c.payload.callback_query_id);
    answers.set(id, (answers.get(id) ?? 0) + 1);
  }
  const wrong = [...queries].filter((id) => answers.get(id) !== 1).map((id) => `${id}: ${answers.get(id) ?? 0}`);
  expect(wrong).toEqual([]);
  expect(queries.size).toBeGreaterThan(500);
}, 60_000);

/** Random callback data: up to 64 bytes of arbitrary (valid UTF-8) characters. */
function randomBytes(rng: Rng): string {
  let s = "";
  const len = rng.int(0, 40);
  for (let i = 0; i < len; i++) s += String.fromCodePoint(rng.next() < 0.8 ? rng.int(32, 126) : rng.int(0xa0, 0x2fff));
  while (Buffer.byteLength(s) > 64) s = s.slice(0, -1);
  return s;
}
