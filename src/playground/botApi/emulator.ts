/**
 * An in-memory Telegram Bot API: the playground's emulator, and under the tests' FakeBotApi
 * (test/support/fakeBotApi.ts), which records and injects faults through the two seams below.
 *
 * A grammY bot plugs in through `fetch` (in-process: `client: { fetch: emulator.fetch }`) or over
 * HTTP (`const server = await emulator.startServer()`, `client: { apiRoot: server.apiRoot }`, updates
 * from `pushUpdate` delivered by getUpdates long polling). The emulator keeps every chat as its
 * user sees it (`messages(chatId)`, after edits and deletions), can emulate flood control
 * (`limitRate`), and in `strict` mode (default) refuses what Telegram refuses.
 */
import type { Chat, Message, PhotoSize, Update, User, UserFromGetMe } from "grammy/types";
import { FAKE_BOT_INFO } from "../botInfo.js";
import { ChangeFeed, type EmulatorEvent } from "./changeFeed.js";
import { ChatModel, type SavedChat } from "./chats.js";
import type { FakeMessage } from "./fakeMessage.js";
import { toClockFn, type ClockLike } from "./clock.js";
import { CommandMenus, type BotCommandEntry } from "./commandMenus.js";
import { StoredFiles, type SavedFiles } from "./files.js";
import { FloodControl, type RateLimitOptions } from "./floodControl.js";
import { UpdateQueue } from "./longPolling.js";
import { TelegramMethods, type ApiRequest } from "./methods.js";
import type { DecodedRequest } from "./requestDecoding.js";
import { ApiErrorResponse, TelegramErrors, type ApiResponse } from "./responses.js";
import { fetchTransport, serveHttp, type FakeServer, type LostRequest, type Receiver } from "./transport.js";

/** The chat windows and the files behind them, as a restart reads them back. */
export interface SavedChats {
  chats: SavedChat[];
  files: SavedFiles;
}

export interface EmulatorOptions {
  /** Identity answered by getMe and used as `from` of sent messages. Default FAKE_BOT_INFO. */
  botInfo?: UserFromGetMe;
  /** Time source for request times, message dates and update dates. Default Date.now. */
  clock?: ClockLike;
  /** Refuse what Telegram refuses (bad markup, too long, not modified...). Default true. */
  strict?: boolean;
}

export class BotApiEmulator {
  readonly botInfo: UserFromGetMe;
  readonly strict: boolean;

  private readonly now: () => number;
  private seq = 0;
  private readonly feed = new ChangeFeed();
  private readonly files = new StoredFiles();
  private readonly chats: ChatModel;
  private readonly updates = new UpdateQueue();
  private readonly commands = new CommandMenus();
  private readonly methods: TelegramMethods;
  private flood: FloodControl | undefined;
  private readonly receiver: Receiver = {
    lostInTransit: (method, payload) => this.lostInTransit(method, payload),
    dispatch: (method, request, via, signal) => this.dispatch(method, request, via, signal),
    download: (path) => this.files.bytesAt(path),
  };

  /** Drop-in for grammY's `client.fetch` (see transport.ts). */
  readonly fetch = fetchTransport(this.receiver);

  constructor(options: EmulatorOptions = {}) {
    this.botInfo = options.botInfo ?? FAKE_BOT_INFO;
    this.strict = options.strict ?? true;
    this.now = toClockFn(options.clock);
    const { id, is_bot, first_name, username } = this.botInfo;
    this.chats = new ChatModel({ botUser: () => ({ id, is_bot, first_name, username }), now: this.now, feed: this.feed, files: this.files });
    this.methods = new TelegramMethods({
      botInfo: this.botInfo,
      strict: this.strict,
      chats: this.chats,
      files: this.files,
      updates: this.updates,
      commands: this.commands,
      feed: this.feed,
      nextSeq: () => this.seq,
    });
  }

  /** Serves the Bot API on 127.0.0.1 with a random port (see transport.ts). */
  startServer(): Promise<FakeServer> {
    this.updates.open();
    return serveHttp(this.receiver, () => this.updates.close());
  }

  // ------------------------------------------------------------------------------------------
  // The seams for a test double; the playground uses the defaults.
  // ------------------------------------------------------------------------------------------

  /** A request lost before it reaches Telegram (a network fault): nothing answers it. Default: none. */
  protected lostInTransit(_method: string, _payload: Record<string, unknown>): LostRequest | undefined {
    return undefined;
  }

  /** The answer to one request: flood control, then what Telegram does. */
  protected async respond(request: ApiRequest, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const chatId = request.payload.chat_id;
    if ((typeof chatId === "number" || typeof chatId === "string") && this.isBlocked(chatId)) return TelegramErrors.blocked();
    try {
      return this.flood?.check(request.method, request.payload) ?? (await this.methods.answer(request, signal));
    } catch (e) {
      if (!(e instanceof ApiErrorResponse)) throw e;
      return e.response;
    }
  }

  private dispatch(method: string, { payload, files }: DecodedRequest, via: "fetch" | "http", signal: AbortSignal | undefined): Promise<ApiResponse> {
    return this.respond({ seq: this.seq++, method, payload, files, at: this.now(), via }, signal);
  }

  // ------------------------------------------------------------------------------------------
  // The chats, as their users see them
  // ------------------------------------------------------------------------------------------

  /** Calls `listener` on every change a chat's viewer would see. Returns the unsubscribe. */
  onChange(listener: (e: EmulatorEvent) => void): () => void {
    return this.feed.subscribe(listener);
  }

  /** The command menu a private chat with `languageCode` shows, resolved like Telegram. */
  commandsFor(languageCode: string | undefined, chatId?: number): BotCommandEntry[] {
    return this.commands.forPrivateChat(languageCode, chatId);
  }

  /** Messages of a chat by message_id, including deleted ones (flagged `deleted`). */
  messages(chatId: number | string): FakeMessage[] {
    return this.chats.messages(chatId);
  }

  /** Messages the user can still see (not deleted). */
  visibleMessages(chatId: number | string): FakeMessage[] {
    return this.messages(chatId).filter((m) => !m.deleted);
  }

  message(chatId: number | string, messageId: number): FakeMessage | undefined {
    return this.chats.message(chatId, messageId);
  }

  /** Labels of the reply keyboard (ReplyKeyboardMarkup) currently shown in the chat. */
  replyKeyboard(chatId: number | string): string[][] | undefined {
    return this.chats.replyKeyboard(chatId);
  }

  /** The bot's message a force_reply asked to answer, if any; taken by the user's next text. */
  takeForceReply(chatId: number | string): FakeMessage | undefined {
    const id = this.chats.takeForceReply(chatId);
    return id === undefined ? undefined : this.chats.message(chatId, id);
  }

  /** Every chat and stored file as plain JSON (see ChatModel.snapshot), and back. */
  saveChats(): SavedChats {
    return { chats: this.chats.snapshot(), files: this.files.snapshot() };
  }

  restoreChats(saved: SavedChats): void {
    this.chats.restore(saved.chats);
    this.files.restore(saved.files);
  }

  /** Whether the user of this private chat blocked the bot. */
  isBlocked(chatId: number | string): boolean {
    return this.chats.blocked(chatId);
  }

  /**
   * The user blocks (or unblocks) the bot, as from the chat's menu: Telegram tells the bot with a
   * my_chat_member update ("kicked" / "member") and refuses what the bot sends there while blocked.
   */
  setBlocked(user: User, chat: Chat.PrivateChat, blocked: boolean): void {
    const state = this.chats.state(chat.id);
    if ((state.blocked === true) === blocked) return;
    state.blocked = blocked;
    const { id, is_bot, first_name, username } = this.botInfo;
    const bot = { id, is_bot, first_name, username };
    const date = Math.floor(this.now() / 1000);
    this.updates.push({
      my_chat_member: {
        chat,
        from: user,
        date,
        old_chat_member: blocked ? { status: "member", user: bot } : { status: "kicked", user: bot, until_date: 0 },
        new_chat_member: blocked ? { status: "kicked", user: bot, until_date: 0 } : { status: "member", user: bot },
      },
    });
  }

  /** Declares how a chat looks (title, names) so sent messages carry a realistic `chat`. */
  registerChat(chat: Chat): void {
    this.chats.state(chat.id).chat = chat;
  }

  /** Allocates the next message_id in a chat (message ids are per chat, shared by both sides). */
  nextMessageId(chatId: number | string): number {
    return ++this.chats.state(chatId).lastMessageId;
  }

  /** Records a message the user sent so the chat history is complete. */
  recordIncoming(message: Message): FakeMessage {
    return this.chats.recordIncoming(message, this.seq);
  }

  /** A photo the user sends: its bytes stored as Telegram does, the message's `photo` sizes returned. */
  storeUserPhoto(bytes: Buffer): PhotoSize[] {
    return this.files.storeUserPhoto(bytes);
  }

  /** Bytes of a file, by the file_id the emulator assigned to it. */
  fileBytes(fileId: string): Buffer | undefined {
    return this.files.bytes(fileId);
  }

  // ------------------------------------------------------------------------------------------
  // Updates and limits
  // ------------------------------------------------------------------------------------------

  /** The next update_id (shared with pushUpdate so ids always increase). */
  nextUpdateId(): number {
    return this.updates.nextUpdateId();
  }

  /**
   * Queues an update for getUpdates (assigning `update_id` if missing) and wakes long polls.
   * A user message in it is added to the chat history. Returns the queued update.
   */
  pushUpdate(update: Omit<Update, "update_id"> & { update_id?: number }): Update {
    if (update.message?.chat) this.recordIncoming(update.message);
    return this.updates.push(update);
  }

  /** Updates queued and not yet confirmed by a getUpdates offset. */
  pendingUpdates(): readonly Update[] {
    return this.updates.pending();
  }

  /** Emulates flood control (see floodControl.ts); `limitRate(undefined)` turns it off. */
  limitRate(options: RateLimitOptions | undefined): void {
    this.flood = options && new FloodControl(options, options.clock ? toClockFn(options.clock) : this.now);
  }

  /** Back to fresh chats, command menus, queued updates, no flood control (files are kept). */
  reset(): void {
    this.chats.clear();
    this.flood = undefined;
    this.updates.clear();
    this.commands.clear();
  }
}
