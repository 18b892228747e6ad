/**
 * Applying what a check decided (decide.ts): the change first (recorded, announced, or owed to a
 * chat that blocked the bot), then the next check on the record as saved, or giving up.
 */
import { OPEN_STATUSES, type ChatRecord, type TxRecord } from "../../store/index.js";
import type { Lookup } from "../../domain/refresh.js";
import { absentAfter, absentRipe, decideChange, decideNext } from "./decide.js";
import type { AnnounceMode } from "./announce.js";
import { noticeChatOf } from "./recipients.js";
import type { WatcherCore } from "./watchState.js";
import type { NoticeDelivery } from "./noticeDelivery.js";

/**
 * `chat` is the check's own read, made just before its status call; re-read only after a notice
 * (which may find the chat blocked).
 */
export async function applyDecision(
  core: WatcherCore,
  notices: NoticeDelivery,
  before: TxRecord,
  lookup: Lookup,
  chat: Readonly<ChatRecord>,
  mode?: AnnounceMode,
): Promise<void> {
  const { deps, options } = core;
  const store = deps.store;
  const refId = before.refId;
  let cur = await store.getTx(refId);
  if (!cur || !OPEN_STATUSES.has(cur.status)) return;
  const now = deps.clock.now();
  // The chat the notice goes to: the sale's maker (staff) or the owner; whether it was blocked before the call.
  const noticeChat = noticeChatOf(cur);
  const chatInactive = noticeChat === chat.chatId ? chat.inactive === true : await isInactive(core, noticeChat);
  const keyAnswers = absentRipe(absentAfter(cur, lookup, now)) ? await keyStillAnswers(core, chat) : false;
  let change = decideChange(before.status, cur, lookup, now, options, { chatInactive, shownByCaller: mode !== undefined, keyAnswers });
  if (change.act === "announce" && deps.toldElsewhere?.(cur)) change = { act: "record", patch: { ...change.fields, status: change.next } };
  if (change.act === "owe") {
    await store.transitionTx(refId, [cur.status], change.patch);
    const after = await store.updateChat(noticeChat, { owedNotices: true });
    // The chat came back during the status call (its return found nothing owed yet): tell it now.
    if (after.inactive !== true) notices.chatBack(noticeChat);
  } else if (change.act === "announce") {
    if (!(await notices.protocol.announce(cur, change.notice, change.fields, change.next, mode))) {
      await notices.retryLater(refId, now);
      return;
    }
    // A notice that found the chat blocked was owed by announce() in its own last write. The chat
    // found blocked only now (another of its notices met the 403 meanwhile) owes nothing: this one went out.
  } else if (change.act === "record") {
    await store.transitionTx(refId, [cur.status], change.patch);
  }
  // Nothing written: the record read above is still the one the next check starts from.
  if (change.act !== "changed-meanwhile" && change.act !== "none") {
    const was = cur;
    cur = await store.getTx(refId);
    // Out of "sending" here, not by its create call: that process died and left its "checking" line.
    const line = was.detail?.progressId;
    if (was.status === "sending" && line !== undefined && cur?.status !== "sending") await notices.dropLine(noticeChat, line);
    if (cur) deps.onChanged?.(cur);
    if (!cur || !OPEN_STATUSES.has(cur.status)) return;
  }

  const next = decideNext(cur, now, options, core.callbacksLastAt(cur, chat), lookup.kind === "error");
  if (next.act === "give-up") {
    if (!(await notices.protocol.announce(cur, "gaveup", {}, cur.status, mode))) await notices.retryLater(refId, now);
  } else if (next.act === "schedule") {
    if (next.save) await store.updateTx(refId, { watch: next.save });
    core.lastRead.set(refId, next.save ? { ...cur, watch: next.save } : cur);
    core.schedule(refId, next.at);
  }
}

/** A refused or unreachable key also reads as "not found": only a key that answers makes that answer evidence. */
async function keyStillAnswers(core: WatcherCore, chat: Readonly<ChatRecord>): Promise<boolean> {
  const key = core.keyOf(chat);
  if (key === undefined || !core.deps.upstream.getProfile) return false;
  try {
    await core.deps.upstream.getProfile(key);
    return true;
  } catch {
    return false;
  }
}

async function isInactive(core: WatcherCore, chatId: number): Promise<boolean> {
  return (await core.deps.store.getChat(chatId))?.inactive === true;
}
