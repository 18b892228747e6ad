/**
 * Every command and every button family, tried as a cashier and as a shop admin, against the roles
 * as the owner sees them in /staf: a cashier tops up, pays bills, checks status, reads own history,
 * receipts, buys again and serves the shop's customers; a shop admin also sets selling prices and
 * shop settings and reads reports, exports and everyone's history; only the owner handles the key,
 * transfers, deposits (their cancel and instant release), balance alerts, the webhook, staff and audit.
 * A new command or button family fails here until it is given its line.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cb, MENU_NAMES, type CallbackName, type MenuName } from "../../src/telegram/buttonData.js";
import { commands, type CommandId } from "../../src/telegram/commands.js";
import { makeWorld, type World } from "../support/world.js";
import { forgedButton, lastCallbackAnswer, ownerAndStaff } from "./support.js";

type Level = "owner" | "admin" | "cashier" | "anyone";

/** The fewest rights that may use each command (`anyone`: no staff rule, the feature answers). */
const COMMAND_LEVEL: Record<CommandId, Level> = {
  start: "anyone",
  menu: "anyone",
  bahasa: "anyone",
  bantuan: "anyone",
  batal: "anyone",
  keluar: "anyone", // for staff: leaving
  admin: "anyone", // the bot's own admins: checked by id
  siaran: "anyone",
  ceksaldo: "anyone",
  mutasi: "anyone", // a downline's wallet entries: the feature answers others
  tarik: "anyone", // a downline's payout: the feature answers others
  h2h: "anyone", // a downline's H2H access: the feature answers others
  beli: "cashier",
  harga: "cashier",
  tagihan: "cashier",
  status: "cashier",
  riwayat: "cashier",
  pelanggan: "cashier",
  pesanan: "cashier", // the shop's orders, as the customers they sell to
  markup: "admin",
  hargajual: "admin",
  toko: "admin",
  laporan: "admin",
  ekspor: "admin",
  saldo: "admin", // the balance: never to a cashier by command
  downline: "owner",
  pin: "cashier",
  kunci: "owner",
  transfer: "owner",
  deposit: "owner",
  peringatan: "owner", // balance alerts
  webhook: "owner", // the key's callback address
  staf: "owner",
  audit: "owner",
};

const BUTTON_LEVEL: Record<Exclude<CallbackName, "menu">, Level> = {
  confirm: "cashier",
  cancelDraft: "cashier",
  confirmAgain: "cashier",
  retry: "cashier",
  status: "cashier",
  historyPage: "cashier",
  historyDetail: "cashier",
  saleReceipt: "cashier",
  buyAgain: "cashier",
  saveCustomer: "cashier",
  customersPage: "cashier",
  customersSearch: "cashier",
  customerOpen: "cashier",
  customerBuy: "cashier",
  customerRename: "cashier",
  customerDelete: "cashier",
  customerDeleteYes: "cashier",
  pricesRoot: "cashier",
  pricesRootRefresh: "cashier",
  pricesProviders: "cashier",
  pricesProducts: "cashier",
  pricesProductsRefresh: "cashier",
  pricesProduct: "cashier",
  pricesBills: "cashier",
  pricesSearch: "cashier",
  reportDaily: "admin",
  exportMenu: "admin",
  exportMonth: "admin",
  depositCancel: "owner",
  depositCancelYes: "owner",
  depositCancelNo: "owner",
  depositRelease: "owner",
  depositReleaseConfirm: "owner",
  depositReleaseLater: "owner",
  webhookRenew: "owner",
  staffInvite: "owner",
  staffOpen: "owner",
  staffRole: "owner",
  staffPinReset: "owner",
  staffRemove: "owner",
  staffNotices: "owner",
  staffCost: "owner",
  staffLeave: "anyone", // a staff member's own leaving: the handler checks the membership
  staffStay: "anyone",
  auditMore: "owner",
  exportAudit: "owner",
  // An inviting downline's own: the handler checks whose (features/downlineOwn.ts).
  downlineInvite: "cashier",
  downlineOpen: "cashier",
  downlinePage: "owner",
  downlineLevel: "owner",
  downlineSuspend: "cashier",
  downlineRemove: "cashier",
  downlineAdjust: "owner",
  downlineAdjustYes: "owner",
  downlineAdjustNo: "owner",
  downlineMayInvite: "owner",
  downlinePinReset: "cashier",
  downlineH2h: "owner",
  h2hNewKey: "anyone",
  pinDigit: "cashier",
  pinBack: "cashier",
  pinOk: "cashier",
  pinCancel: "cashier",
  pinChange: "cashier",
  pinNotMe: "owner",
  pinPick: "owner",
  pinSet: "owner",
  pinOwn: "owner",
  walletMore: "anyone",
  walletCsv: "anyone",
  payoutOpen: "owner",
  payoutDecline: "owner",
  // Not a staff matter: the bot admin's broadcast (checked by id), language, a flow's own buttons.
  broadcastSend: "anyone",
  broadcastCancel: "anyone",
  language: "anyone",
  cancel: "anyone",
  flowChoice: "anyone",
  flowPage: "anyone",
  flowButton: "anyone",
  flowSuggestion: "anyone",
};

/** Each main-menu button as its command. */
const MENU_LEVEL: Record<MenuName, Level> = {
  open: "anyone",
  topup: COMMAND_LEVEL.beli,
  prices: COMMAND_LEVEL.harga,
  bill: COMMAND_LEVEL.tagihan,
  transfer: COMMAND_LEVEL.transfer,
  deposit: COMMAND_LEVEL.deposit,
  balance: COMMAND_LEVEL.saldo,
  history: COMMAND_LEVEL.riwayat,
  status: COMMAND_LEVEL.status,
  alerts: COMMAND_LEVEL.peringatan,
  language: COMMAND_LEVEL.bahasa,
  help: COMMAND_LEVEL.bantuan,
  report: COMMAND_LEVEL.laporan,
  customers: COMMAND_LEVEL.pelanggan,
  markup: COMMAND_LEVEL.markup,
  shop: COMMAND_LEVEL.toko,
  export: COMMAND_LEVEL.ekspor,
};

/** The refusal a staff member of `role` should get for `level`, or undefined when it may. */
function refusal(role: "cashier" | "admin", level: Level): string | undefined {
  if (level === "owner") return "Hanya pemilik yang bisa";
  if (level === "admin" && role === "cashier") return "Hanya pemilik atau admin toko yang bisa";
  return undefined;
}

let w: World;
afterEach(() => w?.close());

describe.each(["cashier", "admin"] as const)("as a %s", (role) => {
  it("every command is refused or answered as the roles say", async () => {
    w = await makeWorld();
    const { dewi } = await ownerAndStaff(w, role);
    // Leaving is tried last: it ends the membership.
    const ids = (Object.keys(commands) as CommandId[]).filter((id) => id !== "keluar");
    const wrong: string[] = [];
    for (const id of ids) {
      for (const name of commands[id]) {
        await dewi.sendCommand(name);
        const reply = dewi.lastReply() ?? "";
        const expected = refusal(role, COMMAND_LEVEL[id]);
        const refused = reply.includes("Hanya pemilik");
        if (expected ? !reply.includes(expected) : refused) wrong.push(`/${name}: ${reply.slice(0, 80)}`);
        await dewi.sendCommand("batal");
      }
    }
    expect(wrong).toEqual([]);
    expect(w.sandbox.calls().filter((c) => /deposit|transfer/.test(c.path))).toEqual([]);
  });

  it("every button family, forged, is refused or let through as the roles say", async () => {
    w = await makeWorld();
    const { dewi } = await ownerAndStaff(w, role);
    await dewi.sendCommand("menu");
    const wrong: string[] = [];
    const tryButton = async (data: string, level: Level) => {
      const before = w.fake.callsOf("answerCallbackQuery").length;
      await dewi.deliver(forgedButton(w, dewi, data));
      const answer = w.fake.callsOf("answerCallbackQuery").length > before ? lastCallbackAnswer(w) : "";
      const expected = refusal(role, level);
      if (expected ? !answer.includes(expected) : answer.includes("Hanya pemilik")) wrong.push(`${data}: ${answer}`);
    };
    for (const name of Object.keys(cb) as CallbackName[]) {
      if (name === "menu") continue;
      await tryButton(cb[name].encode(cb[name].longest()[0]! as never), BUTTON_LEVEL[name]);
    }
    for (const name of MENU_NAMES) await tryButton(cb.menu.encode({ name }), MENU_LEVEL[name]);
    expect(wrong).toEqual([]);
  });
});

describe("history", () => {
  async function sell(u: Awaited<ReturnType<typeof ownerAndStaff>>["dewi"], target: string): Promise<void> {
    await u.sendCommand("beli", `S10 ${target}`);
    await u.pressButton(/Konfirmasi/);
  }

  it("a cashier's /riwayat lists only the cashier's own sales; a shop admin's lists everyone's", async () => {
    w = await makeWorld();
    const { rina, dewi } = await ownerAndStaff(w, "cashier");
    const sari = w.user({ firstName: "Sari", languageCode: "id" });
    await rina.sendCommand("staf");
    await rina.pressButton(/Undang admin/);
    const token = /start=staff_([A-Za-z0-9_-]+)/.exec(rina.lastReply() ?? "")![1]!;
    await sari.sendCommand("start", `staff_${token}`);
    await sell(rina, "081200000001");
    await sell(dewi, "081200000002");
    await sell(sari, "081200000003");

    await dewi.sendCommand("riwayat");
    const cashierList = dewi.lastReply()!;
    expect(cashierList).toContain("081200000002");
    expect(cashierList).not.toContain("081200000001");
    expect(cashierList).not.toContain("081200000003");

    await sari.sendCommand("riwayat");
    const adminList = sari.lastReply()!;
    for (const target of ["081200000001", "081200000002", "081200000003"]) expect(adminList).toContain(target);

    // Another's sale, asked for by a forged detail button, is unknown to the cashier.
    const owners = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.target === "081200000001")!;
    await dewi.deliver(forgedButton(w, dewi, cb.historyDetail.encode({ refId: owners.refId })));
    expect(dewi.lastReply()).toBe(cashierList);
    await sari.deliver(forgedButton(w, sari, cb.historyDetail.encode({ refId: owners.refId })));
    expect(sari.lastReply()).toContain("081200000001");
  });
});
