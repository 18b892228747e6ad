// The playground page's sandbox panel: what one pending entry says and what can be done with it
// (src/playground/page/app.js renders the list).
/**
 * One panel entry in the chat's words: whose it is (a cashier's sale, a downline's purchase, a shop order's customer), and the
 * actions someone can take on it: the one who scans a QR pays it, a paid deposit waiting for the next
 * working day is settled now, a purchase settles as success or failure.
 */
export function pendingEntry(p, { w, name, rupiah, api, role = () => undefined }) {
  const status = (p.kind === "deposit" && w("depositStatus")[p.status]) || w("status")[p.status] || p.status;
  const what = `${w("kind")[p.kind] ?? p.kind} ${p.title ?? ""} ${p.target ?? ""} ${rupiah(p.amount)} (${status})`;
  let text;
  if (p.order && p.kind === "deposit") text = `${name(p.order.customer)}: ${w("shopOrder")(name(p.chatId))} · ${p.order.product} ${rupiah(p.amount)} (${status})`;
  else if (p.order) text = `${name(p.chatId)}: ${what} · ${w("forOrder")(name(p.order.customer))}`;
  else if (p.by === undefined) text = `${name(p.chatId)}: ${what}`;
  else text = `${w(role(p.by) === "downline" ? "boughtBy" : "soldBy")(name(p.by), name(p.chatId))}: ${what}`;
  const settle = (outcome) => () => api("/api/sandbox/settle", { refId: p.refId, outcome });
  let actions = [];
  if (p.kind !== "deposit") actions = [[w("settleOk"), settle("success")], [w("settleFail"), settle("failed")]];
  else if (p.status === "pending") actions = [[w("pays")(name(p.payer ?? p.chatId)), () => api("/api/sandbox/pay", { refId: p.refId })]];
  else if (p.status === "processing") actions = [[w("settleNow"), settle("success")]];
  return { text, actions };
}
