/**
 * The H2H tests' world (docs/h2h.md): Rina's bot with its HTTP server on 127.0.0.1, the sandbox her
 * provider and her key linked; Andi her Gold downline (level 1) with H2H on, a key, 127.0.0.1 listed,
 * and a wallet funded by hand when asked; the bot's own provider client pointed at `<bot>/h2h`.
 */
import { expect } from "vitest";
import { UpstreamClient } from "../../src/upstream/client.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";

export const RINA = 5001;
/** Andi as a member of Rina's network. */
export const ANDI = 5002;
/** Gold's default markup (domain/network.ts DEFAULT_LEVELS), level 1. */
export const GOLD_MARKUP = 1000;

export interface H2hWorld {
  w: World;
  /** The bot's HTTP base (no /h2h). */
  url: string;
  /** Andi's H2H key. */
  key: string;
  /** The bot's own provider client at `<url>/h2h`. */
  client: UpstreamClient;
  close(): Promise<void>;
}

/** Rina links her key and Andi joins her network by a Gold invitation. */
export async function rinaAndAndi(w: World): Promise<void> {
  await w.store.setApiKey(RINA, w.demoKey);
  await andiJoins(w);
}

/** Andi joins Rina's network by a Gold invitation (Rina's key linked already). */
export async function andiJoins(w: World): Promise<void> {
  const invite = await w.app.deps.network.invite(RINA, 1);
  if (typeof invite === "string") throw new Error(invite);
  expect(await w.app.deps.network.join(invite.token, { chat: ANDI, name: "Andi", ownsKey: false })).toMatchObject({ owner: RINA, level: 1 });
}

/** Rina turns H2H on for `chat`, which makes a key and lists 127.0.0.1; the key. */
export async function grantH2h(w: World, chat: number): Promise<string> {
  await w.app.h2hAccess.enable(RINA, chat, true);
  const made = await w.app.h2hAccess.newKey(chat, w.clock.now());
  if (made === "off") throw new Error("off");
  await w.app.h2hAccess.setIps(chat, ["127.0.0.1"]);
  return made.key;
}

/** Rina adds `amount` to `chat`'s wallet by hand (cash). */
export async function fundWallet(w: World, chat: number, amount: number, ref = `F${amount}`): Promise<void> {
  await w.app.deps.wallets.adjust({ ref, owner: RINA, wallet: chat, amount, reason: "tunai", by: RINA });
}

export function h2hClient(w: World): UpstreamClient {
  return new UpstreamClient({ baseUrl: `${w.app.http()!.url}/h2h`, readRetries: 0, timeoutMs: 5000 });
}

/** Rina's bot started with its HTTP server, Andi with H2H and (with `funds`) that much in his wallet. */
export async function h2hWorld(opts: WorldOptions & { funds?: number } = {}): Promise<H2hWorld> {
  const { funds, ...worldOpts } = opts;
  const w = await makeWorld({ ...worldOpts, env: { HTTP_PORT: "0", ...worldOpts.env } });
  let key: string;
  try {
    await w.app.start();
    await rinaAndAndi(w);
    key = await grantH2h(w, ANDI);
    if (funds !== undefined) await fundWallet(w, ANDI, funds, "F1");
  } catch (err) {
    await w.close();
    throw err;
  }
  const client = h2hClient(w);
  return {
    w,
    url: w.app.http()!.url,
    key,
    client,
    close: async () => {
      await client.close();
      await w.close();
    },
  };
}
