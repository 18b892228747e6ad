/**
 * Test helpers that read like a person using the bot:
 *
 * ```ts
 * const fake = new FakeBotApi();
 * const bot = createBot(..., { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch } });
 * const alice = makeUser(bot, fake, { firstName: "Alice" });
 * await alice.sendCommand("start");
 * expect(alice.lastReply()).toContain("Welcome");
 * await alice.pressButton("Top up");
 * expect(alice.buttons()).toEqual(["Confirm", "Cancel"]);
 * ```
 *
 * Each action builds a realistic Update (increasing update_id, date from the clock, message
 * entities for /commands), runs it through `bot.handleUpdate` and returns the API calls the
 * update caused. Errors thrown by the bot's middleware propagate (as grammY's BotError), so a
 * test fails loudly unless the bot handles its own errors.
 */
import type {
  CallbackQuery,
  Chat,
  InlineKeyboardButton,
  Message,
  MessageEntity,
  Update,
  User,
} from "grammy/types";
import type { ClockLike, FakeBotApi, FakeMessage, RecordedCall } from "./fakeBotApi.js";

/** Anything that can handle an update like a grammY `Bot` (any context type works). */
export interface BotLike {
  handleUpdate(update: Update): Promise<void>;
}

export interface UserOptions {
  /** Telegram user id (default: a fresh id per makeUser call, starting at 100001). */
  id?: number;
  firstName?: string;
  lastName?: string;
  username?: string;
  /** IETF language tag as Telegram sends it, e.g. "id" or "en" (default "id"). */
  languageCode?: string;
  /** Chat the user talks in (default: the private chat, i.e. the user id; groups: -id). */
  chatId?: number;
  chatType?: "private" | "group" | "supergroup";
  /** Group title when chatType is a group. */
  chatTitle?: string;
  /** Time source for update dates (ms); defaults to Date.now. */
  clock?: ClockLike;
  /** With `bot: null`: how long an action waits for the bot to poll past its update. Default 10 s. */
  pollingTimeoutMs?: number;
}

/** A button found on a message's inline keyboard. */
export interface FoundButton {
  messageId: number;
  row: number;
  column: number;
  button: InlineKeyboardButton;
}

/** What `makeUser` returns. */
export interface FakeUser {
  readonly user: User;
  readonly chat: Chat;
  readonly chatId: number;
  /** Sends a text message (a leading /command gets a bot_command entity). Returns the calls it caused. */
  sendText(text: string): Promise<RecordedCall[]>;
  /** `sendCommand("start", "ref123")` sends "/start ref123". `cmd` may include the slash. */
  sendCommand(cmd: string, args?: string): Promise<RecordedCall[]>;
  /** Sends any message content, e.g. `{ contact: {...} }` or `{ photo: [...] }`. */
  sendMessage(fields: Partial<Message>): Promise<RecordedCall[]>;
  /**
   * Presses the inline button whose label equals `label` (or matches the RegExp) on the newest
   * bot message in this chat that has an inline keyboard (or on `opts.messageId`).
   */
  pressButton(label: string | RegExp, opts?: { messageId?: number }): Promise<RecordedCall[]>;
  /** Looks a button up without pressing it (URL/web-app buttons can only be found). */
  findButton(label: string | RegExp, opts?: { messageId?: number }): FoundButton | undefined;
  /** Labels of the newest inline keyboard (flattened), or [] if none. */
  buttons(opts?: { messageId?: number }): string[];
  /** Labels of the newest inline keyboard by row. */
  keyboard(opts?: { messageId?: number }): string[][];
  /** Labels of the reply keyboard (ReplyKeyboardMarkup) currently shown, if any. */
  replyKeyboard(): string[][] | undefined;
  /** Visible text/caption of the bot message most recently sent or edited in this chat. */
  lastReply(): string | undefined;
  /** Visible texts/captions the bot sent or edited in this chat since the last user action. */
  replies(): string[];
  /** Bytes of the latest photo the bot uploaded to this chat (throws if none). */
  lastPhoto(): Buffer;
  /** The chat as the user sees it (`fake.messages(chatId)`). */
  messages(): FakeMessage[];
  /** Bot message ids in this chat, oldest first (including deleted ones). */
  readonly sentMessageIds: number[];
  /** Builds (without handling) the Update `sendText` would send; for polling tests with pushUpdate. */
  textUpdate(text: string): Update;
  /** Builds (without handling) the callback_query Update `pressButton` would send. */
  callbackUpdate(label: string | RegExp, opts?: { messageId?: number }): Update;
  /** Handles an arbitrary update as this user's action. */
  deliver(update: Update): Promise<RecordedCall[]>;
}

let nextUserId = 100_001;

/**
 * Creates a user talking to `bot` through `fake`.
 *
 * Pass `bot: null` when the bot runs elsewhere and polls `fake.startServer()` (bot.start(),
 * runner, or a child process with TELEGRAM_API_ROOT): actions then queue updates with
 * `fake.pushUpdate` and resolve once the bot polls past them (see `pollingTimeoutMs`).
 */
export function makeUser(bot: BotLike | null, fake: FakeBotApi, opts: UserOptions = {}): FakeUser {
  const id = opts.id ?? nextUserId++;
  const pollingTimeoutMs = opts.pollingTimeoutMs ?? 10_000;
  const now = opts.clock === undefined ? () => Date.now() : typeof opts.clock === "function" ? opts.clock : () => (opts.clock as { now(): number }).now();
  const firstName = opts.firstName ?? `Tester${id}`;
  const chatType = opts.chatType ?? "private";

  const user: User = {
    id,
    is_bot: false,
    first_name: firstName,
    ...(opts.lastName !== undefined ? { last_name: opts.lastName } : {}),
    ...(opts.username !== undefined ? { username: opts.username } : {}),
    language_code: opts.languageCode ?? "id",
  };
  const chatId = opts.chatId ?? (chatType === "private" ? id : -id);
  const chat: Chat =
    chatType === "private"
      ? {
          id: chatId,
          type: "private",
          first_name: firstName,
          ...(opts.lastName !== undefined ? { last_name: opts.lastName } : {}),
          ...(opts.username !== undefined ? { username: opts.username } : {}),
        }
      : { id: chatId, type: chatType, title: opts.chatTitle ?? `Test group ${-chatId}` };
  fake.registerChat(chat);

  /** `seq` of the first call after the latest user action (for `replies()`). */
  let mark = 0;
  let callbackCounter = 0;
  const date = () => Math.floor(now() / 1000);

  function buildMessage(fields: Partial<Message>): Message {
    return {
      message_id: fake.nextMessageId(chatId),
      from: user,
      chat,
      date: date(),
      ...fields,
    } as Message;
  }

  function textUpdate(text: string): Update {
    const entities: MessageEntity[] = [];
    const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
    if (command) entities.push({ type: "bot_command", offset: 0, length: command[0].length });
    const message = buildMessage({ text, ...(entities.length > 0 ? { entities } : {}) });
    return { update_id: fake.nextUpdateId(), message } as Update;
  }

  async function deliver(update: Update): Promise<RecordedCall[]> {
    if (bot === null) return deliverByPolling(update);
    if (update.message) fake.recordIncoming(update.message);
    mark = fake.nextSeq;
    const tag = { updateId: update.update_id, userId: id };
    await fake.runTagged(tag, () => bot.handleUpdate(update));
    return fake.calls.filter((c) => c.tag === tag);
  }

  /**
   * For a bot running elsewhere (polling the fake server): queue the update and wait until the
   * bot asks getUpdates for anything after it. grammY's `bot.start()` handles updates one by
   * one before polling again, so by then the handler is done. (@grammyjs/runner confirms
   * updates before handling finishes; there, follow up with `fake.waitFor`.)
   */
  async function deliverByPolling(update: Update): Promise<RecordedCall[]> {
    const start = fake.nextSeq;
    mark = start;
    fake.pushUpdate(update);
    const confirm = await fake.waitFor(
      (c) => c.method === "getUpdates" && c.seq >= start && Number(c.payload.offset) > update.update_id,
      pollingTimeoutMs,
      { answered: false },
    );
    return fake.calls.filter((c) => c.seq >= start && c.seq < confirm.seq && c.method !== "getUpdates");
  }

  /** Bot messages in this chat with an inline keyboard, newest first. */
  function keyboardMessages(): FakeMessage[] {
    return fake
      .visibleMessages(chatId)
      .filter((m) => m.from === "bot" && m.inlineKeyboard !== undefined && m.inlineKeyboard.length > 0)
      .reverse();
  }

  function targetMessage(messageId: number | undefined): FakeMessage | undefined {
    if (messageId === undefined) return keyboardMessages()[0];
    const m = fake.message(chatId, messageId);
    return m && !m.deleted ? m : undefined;
  }

  function findButton(label: string | RegExp, o: { messageId?: number } = {}): FoundButton | undefined {
    const m = targetMessage(o.messageId);
    const rows = m?.inlineKeyboard ?? [];
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (let c = 0; c < row.length; c++) {
        const b = row[c]!;
        if (typeof label === "string" ? b.text === label : label.test(b.text)) {
          return { messageId: m!.messageId, row: r, column: c, button: b };
        }
      }
    }
    return undefined;
  }

  function describeKeyboards(): string {
    const list = keyboardMessages()
      .map((m) => `  message ${m.messageId}: ${m.inlineKeyboard!.map((row) => row.map((b) => JSON.stringify(b.text)).join(" | ")).join(" / ")}`)
      .join("\n");
    return list || "  (no visible bot message in this chat has an inline keyboard)";
  }

  function callbackUpdate(label: string | RegExp, o: { messageId?: number } = {}): Update {
    const found = findButton(label, o);
    if (!found) {
      const where = o.messageId === undefined ? "the newest keyboard" : `message ${o.messageId}`;
      throw new Error(`No inline button ${String(label)} on ${where} in chat ${chatId}. Keyboards:\n${describeKeyboards()}`);
    }
    const { button } = found;
    if (!("callback_data" in button)) {
      const kind = Object.keys(button).filter((k) => k !== "text").join(", ");
      throw new Error(`Button ${JSON.stringify(button.text)} is not a callback button (${kind}); it cannot be pressed in tests.`);
    }
    const message = fake.message(chatId, found.messageId)!.message;
    const query: CallbackQuery = {
      id: `${id}${String(++callbackCounter).padStart(6, "0")}`,
      from: user,
      message,
      chat_instance: String(-chatId * 7 + 13),
      data: button.callback_data,
    };
    return { update_id: fake.nextUpdateId(), callback_query: query } as Update;
  }

  function keyboard(o: { messageId?: number } = {}): string[][] {
    return targetMessage(o.messageId)?.inlineKeyboard?.map((row) => row.map((b) => b.text)) ?? [];
  }

  function botMessages(): FakeMessage[] {
    return fake.messages(chatId).filter((m) => m.from === "bot");
  }

  return {
    user,
    chat,
    chatId,
    sendText: (text) => deliver(textUpdate(text)),
    sendCommand: (cmd, args) => deliver(textUpdate(`/${cmd.replace(/^\//, "")}${args ? ` ${args}` : ""}`)),
    sendMessage: (fields) => deliver({ update_id: fake.nextUpdateId(), message: buildMessage(fields) } as Update),
    // async so a missing button rejects the returned promise instead of throwing synchronously
    pressButton: async (label, o) => deliver(callbackUpdate(label, o)),
    findButton,
    buttons: (o) => keyboard(o).flat(),
    keyboard,
    replyKeyboard: () => fake.replyKeyboard(chatId),
    lastReply() {
      const latest = botMessages()
        .filter((m) => !m.deleted)
        .sort((a, b) => a.touchedSeq - b.touchedSeq)
        .pop();
      return latest?.text ?? latest?.caption;
    },
    replies() {
      return fake
        .sentTo(chatId)
        .filter((c) => c.seq >= mark)
        .map((c) => fake.textOf(c))
        .filter((t): t is string => t !== undefined);
    },
    lastPhoto() {
      const photos = fake.sentTo(chatId).filter((c) => c.method === "sendPhoto" || c.method === "editMessageMedia");
      for (let i = photos.length - 1; i >= 0; i--) {
        const c = photos[i]!;
        const file = c.files.photo ?? c.files.media ?? Object.values(c.files)[0];
        if (file) return file.bytes;
      }
      throw new Error(`The bot has not uploaded a photo to chat ${chatId} (photos sent by file_id/URL have no bytes).`);
    },
    messages: () => fake.messages(chatId),
    get sentMessageIds() {
      return botMessages().map((m) => m.messageId);
    },
    textUpdate,
    callbackUpdate,
    deliver,
  };
}
