/** /bantuan (/help) names every command of the Telegram menu but /start and itself, in each language. */
import { afterEach, expect, it } from "vitest";
import { commands, type CommandId } from "../../src/telegram/commands.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

/** Not in the help: /start (the first step), help itself, and the bot admins' own commands. */
const UNLISTED = new Set<CommandId>(["start", "bantuan", "admin", "siaran", "ceksaldo"]);

it.each([
  ["id", "bantuan", 0],
  ["en", "help", 1],
] as const)("the help in %s lists every command", async (lang, help, nameAt) => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: lang });
  await u.sendCommand(help);
  const text = u.lastReply()!;
  const missing = (Object.keys(commands) as CommandId[])
    .filter((id) => !UNLISTED.has(id))
    .map((id) => `/${commands[id][nameAt] ?? commands[id][0]!}`)
    .filter((name) => !new RegExp(`${name}:`).test(text));
  expect(missing).toEqual([]);
});
