/**
 * The playground's cashier: Dewi is Rina's kasir from the first start. She sells with Rina's key and
 * balance (the sale is on Rina's ledger and names her), and Rina reads who joined in /audit.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { startPlayground, type Playground } from "../../src/playground/index.js";
import type { MessageView } from "../../src/playground/view.js";

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const RINA = 1001;
const DEWI = 1004;
const BUDI = 1002;

const post = (pg: Playground, path: string, body: unknown) =>
  fetch(new URL(path, pg.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const chat = async (pg: Playground, user: number) => ((await (await fetch(new URL(`api/chat/${user}`, pg.url))).json()) as { messages: MessageView[] }).messages;
const seen = (m: MessageView | undefined) => (m?.html ?? "").replace(/<[^>]+>/g, "");

async function botSays(pg: Playground, user: number, text: string | RegExp): Promise<MessageView> {
  let last: MessageView | undefined;
  await expect
    .poll(async () => {
      last = (await chat(pg, user)).filter((m) => m.from === "bot").at(-1);
      return seen(last);
    }, { timeout: 10_000 })
    .toMatch(text);
  return last!;
}

it("Dewi, Rina's cashier, sells with Rina's balance; Rina's /audit shows her joining", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "playground-staff-"));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const pg = await startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000, say: () => undefined });
  cleanup.push(() => pg.stop());

  const users = ((await (await fetch(new URL("api/users", pg.url))).json()) as { users: { id: number; name: string; role: string }[] }).users;
  expect(users.find((u) => u.id === DEWI)).toMatchObject({ name: "Dewi", role: "cashier" });
  // Her Menu is a cashier's: selling, not the owner's commands.
  const menu = ((await (await fetch(new URL(`api/chat/${DEWI}`, pg.url))).json()) as { commands: { command: string }[] }).commands.map((c) => c.command);
  expect(menu).toEqual(expect.arrayContaining(["beli", "riwayat", "keluar"]));
  for (const hidden of ["transfer", "deposit", "staf", "kunci", "saldo"]) expect(menu).not.toContain(hidden);

  await post(pg, `api/chat/${DEWI}/send`, { text: "/beli S10 081234567890" });
  const screen = await botSays(pg, DEWI, /081234567890/);
  const confirm = screen.keyboard.flat().find((b) => /Konfirmasi/.test(b.text));
  expect(confirm).toBeDefined();
  await post(pg, `api/chat/${DEWI}/press`, { messageId: screen.id, data: confirm!.data });
  await expect.poll(async () => (await pg.app.store.listTxByChat(RINA)).items.map((t) => [t.status, t.by]), { timeout: 10_000 }).toEqual([["pending", DEWI]]);

  await post(pg, `api/chat/${RINA}/send`, { text: "/audit" });
  await botSays(pg, RINA, /Dewi · staf bergabung/);
});

it("opening Rina's invitation button in Budi's chat starts the bot there with its payload, as Telegram does", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "playground-staff-"));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const pg = await startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000, say: () => undefined });
  cleanup.push(() => pg.stop());
  const users = (await (await fetch(new URL("api/users", pg.url))).json()) as { botUsername: string };

  await post(pg, `api/chat/${RINA}/send`, { text: "/staf" });
  const list = await botSays(pg, RINA, /Staf/);
  await post(pg, `api/chat/${RINA}/press`, { messageId: list.id, data: list.keyboard.flat().find((b) => /Undang kasir/.test(b.text))!.data });
  // The invitation's link button (its security notice, "Undangan staf dibuat", may come before or after it).
  let url = "";
  await expect
    .poll(async () => (url = (await chat(pg, RINA)).filter((m) => m.from === "bot" && /Undangan/.test(seen(m))).flatMap((m) => m.keyboard.flat()).find((b) => b.url !== undefined)?.url ?? ""), { timeout: 10_000 })
    .not.toBe("");
  expect(url).toMatch(new RegExp(`^https://t\\.me/${users.botUsername}\\?start=staff_`));

  // Another bot's link, or anything else, is not this bot's start: refused, nothing sent.
  expect((await post(pg, `api/chat/${BUDI}/open`, { url: "https://t.me/other_bot?start=staff_x" })).status).toBe(400);
  expect((await post(pg, `api/chat/${BUDI}/open`, { url })).status).toBe(200);
  await botSays(pg, BUDI, /Anda sekarang kasir/);
});
