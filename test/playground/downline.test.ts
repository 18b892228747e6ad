/**
 * The playground's downline: Andi is Rina's Gold downline from the first start, with Rp50.000 in his
 * wallet, credited once (a restart posts nothing twice). He buys from his wallet at Gold's price with
 * Rina's key, and Rina sees him in /downline.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { startPlayground, type Playground } from "../../src/playground/index.js";
import type { MessageView } from "../../src/playground/view.js";
import { rupiah } from "../../src/render/format.js";
import { DEMO_KEY } from "../../src/sandbox/index.js";

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const RINA = 1001;
const ANDI = 1006;
/** Gold's default markup (domain/network.ts DEFAULT_LEVELS). */
const GOLD_MARKUP = 1000;

const start = (dataDir: string) => startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000, say: () => undefined });
const post = (pg: Playground, path: string, body: unknown) =>
  fetch(new URL(path, pg.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const chat = async (pg: Playground, user: number) => (await (await fetch(new URL(`api/chat/${user}`, pg.url))).json()) as { messages: MessageView[]; commands: { command: string }[] };
const seen = (m: MessageView | undefined) => (m?.html ?? "").replace(/<[^>]+>/g, "");

async function botSays(pg: Playground, user: number, text: string | RegExp): Promise<MessageView> {
  let last: MessageView | undefined;
  await expect
    .poll(async () => {
      last = (await chat(pg, user)).messages.filter((m) => m.from === "bot").at(-1);
      return seen(last);
    }, { timeout: 10_000 })
    .toMatch(text);
  return last!;
}

async function tempDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), "playground-downline-"));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

it("Andi is Rina's Gold downline with Rp50.000 available, credited once across a restart", async () => {
  const dataDir = await tempDir();
  const first = await start(dataDir);
  const users = ((await (await fetch(new URL("api/users", first.url))).json()) as { users: { id: number; name: string; role: string }[] }).users;
  expect(users.find((u) => u.id === ANDI)).toMatchObject({ name: "Andi", role: "downline" });
  expect((await first.app.store.getChat(ANDI))?.downlineOf).toMatchObject({ owner: RINA, upline: RINA, level: 1 });
  expect((await first.app.deps.network.levels(RINA))[1]?.name).toBe("Gold");
  expect(await first.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
  // The page's first hint says what Andi can do: buy from his wallet, top it up by QRIS, ask a payout.
  const words = await (await fetch(new URL("words.js", first.url))).text();
  expect(words).toMatch(/Andi downline Gold Rina:[^`]*\/deposit[^`]*\/tarik/);
  expect(words).toMatch(/Andi is Rina's Gold downline:[^`]*\/deposit[^`]*\/withdraw/);
  // His Menu is a downline's: his wallet and buying, not the owner's commands.
  const menu = (await chat(first, ANDI)).commands.map((c) => c.command);
  expect(menu).toEqual(expect.arrayContaining(["saldo", "beli", "mutasi", "deposit"]));
  for (const hidden of ["transfer", "downline", "staf", "kunci"]) expect(menu).not.toContain(hidden);
  await first.stop();

  const again = await start(dataDir);
  cleanup.push(() => again.stop());
  expect(await again.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
  expect(await again.app.deps.network.members(RINA)).toHaveLength(1);
  await post(again, `api/chat/${ANDI}/send`, { text: "/mutasi" });
  const statement = seen(await botSays(again, ANDI, new RegExp(`\\+${rupiah(50_000, "id").replace(".", "\\.")}`)));
  expect(statement.match(/\+Rp50\.000/g)).toHaveLength(1);
  await post(again, `api/chat/${RINA}/send`, { text: "/downline" });
  await botSays(again, RINA, `• Andi · Gold · saldo ${rupiah(50_000, "id")}`);
});

it("a /beli by Andi is paid from his wallet at Gold's price once it succeeds", async () => {
  const pg = await start(await tempDir());
  cleanup.push(() => pg.stop());
  const cost = (await pg.app.upstream.prepaidPriceList(DEMO_KEY, "S10")).find((p) => p.code === "S10")!.price;
  const price = cost + GOLD_MARKUP;

  await post(pg, `api/chat/${ANDI}/send`, { text: "/saldo" });
  await botSays(pg, ANDI, `Saldo: ${rupiah(50_000, "id")}`);
  await post(pg, `api/chat/${ANDI}/send`, { text: "/beli S10 081234567890" });
  const screen = await botSays(pg, ANDI, `Harga jual: ${rupiah(price, "id")}`);
  const confirm = screen.keyboard.flat().find((b) => /Konfirmasi/.test(b.text));
  expect(confirm).toBeDefined();
  await post(pg, `api/chat/${ANDI}/press`, { messageId: screen.id, data: confirm!.data });
  await expect.poll(async () => (await pg.app.store.listTxByChat(RINA)).items.filter((t) => t.by === ANDI).map((t) => t.status), { timeout: 10_000 }).toEqual(["pending"]);
  const tx = (await pg.app.store.listTxByChat(RINA)).items.find((t) => t.by === ANDI)!;
  expect(await pg.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: price, available: 50_000 - price });

  // Settled from the panel, as a person at the page does.
  expect(await (await post(pg, "api/sandbox/settle", { refId: tx.refId, outcome: "success" })).json()).toEqual({ ok: true });
  await expect.poll(async () => (await pg.app.store.getTx(tx.refId))?.status, { timeout: 10_000 }).toBe("success");
  await pg.app.deps.wallets.idle();
  await expect.poll(() => pg.app.deps.wallets.view(ANDI), { timeout: 10_000 }).toEqual({ balance: 50_000 - price, held: 0, available: 50_000 - price });
});

it("Andi tops up by QRIS and the panel pays it: his wallet is credited once, with Rina's key", async () => {
  const pg = await start(await tempDir());
  cleanup.push(() => pg.stop());
  const press = async (screen: MessageView, label: RegExp) => {
    const button = screen.keyboard.flat().find((b) => label.test(b.text));
    expect(button, seen(screen)).toBeDefined();
    await post(pg, `api/chat/${ANDI}/press`, { messageId: screen.id, data: button!.data });
  };
  await post(pg, `api/chat/${ANDI}/send`, { text: "/deposit" });
  await press(await botSays(pg, ANDI, /Pilih metode/), /^QRIS · /);
  await botSays(pg, ANDI, /Berapa nominal/);
  await post(pg, `api/chat/${ANDI}/send`, { text: "50rb" });
  await press(await botSays(pg, ANDI, `Masuk ke saldo Anda: ${rupiah(49_650, "id")}`), /Konfirmasi/);
  await expect.poll(async () => (await pg.app.store.listTxByChat(RINA)).items.filter((t) => t.by === ANDI && t.kind === "deposit").map((t) => t.status), { timeout: 10_000 }).toEqual(["pending"]);
  const dep = (await pg.app.store.listTxByChat(RINA)).items.find((t) => t.by === ANDI && t.kind === "deposit")!;
  expect(await (await post(pg, "api/sandbox/pay", { refId: dep.refId })).json()).toEqual({ ok: true });
  await botSays(pg, ANDI, `Saldo dompet sekarang ${rupiah(50_000 + 49_650, "id")}`);
  // The paid notice goes before its status is saved, the credit right after (as a sale's "Sisa dompet").
  await expect.poll(() => pg.app.deps.wallets.view(ANDI), { timeout: 10_000 }).toEqual({ balance: 99_650, held: 0, available: 99_650 });
});

it("serves the H2H API on 127.0.0.1: Andi's /h2h names its URL, and his key answers get_profile there", async () => {
  const pg = await start(await tempDir());
  cleanup.push(() => pg.stop());
  await pg.app.h2hAccess.enable(RINA, ANDI, true);
  await post(pg, `api/chat/${ANDI}/send`, { text: "/h2h" });
  const screen = seen(await botSays(pg, ANDI, /Akses H2H/));
  const base = /(http:\/\/127\.0\.0\.1:\d+\/h2h)/.exec(screen)?.[1];
  expect(base, screen).toBeDefined();
  const made = await pg.app.h2hAccess.newKey(ANDI, Date.now());
  if (made === "off") throw new Error("H2H is off");
  await pg.app.h2hAccess.setIps(ANDI, ["127.0.0.1"]);
  const res = await fetch(`${base}/get_profile`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `api_key=${made.key}` });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ status: "true", data: { balance: "50000" } });
});

it("Rina adds to Andi's wallet from his card: the amount typed after the bot's 'Balas pesan ini' is its reply, as a Telegram app sends it", async () => {
  const pg = await start(await tempDir());
  cleanup.push(() => pg.stop());
  await post(pg, `api/chat/${RINA}/send`, { text: "/downline" });
  const list = await botSays(pg, RINA, /Downline Anda/);
  await post(pg, `api/chat/${RINA}/press`, { messageId: list.id, data: `dl:o:${ANDI}` });
  const card = await botSays(pg, RINA, /Saldo dompet/);
  await post(pg, `api/chat/${RINA}/press`, { messageId: card.id, data: `dl:a:${ANDI}:in` });
  await botSays(pg, RINA, /Balas pesan ini/);
  await post(pg, `api/chat/${RINA}/send`, { text: "20000 tunai" });
  await botSays(pg, RINA, `Tambah ${rupiah(20_000, "id")} ke dompet Andi?`);
});
