/**
 * After the operator went on with a new store secret (STORE_SECRET_RESET), each chat whose stored
 * api key could not be read was left unlinked and marked `keyLost`. This tells each of them once,
 * at the bulk pace, to send the key again. The mark goes when the message went out, the chat
 * blocked the bot, Telegram refused it for good, or the chat linked meanwhile; a delivery that is
 * not known to have arrived keeps it for the next start. Each chat's message and mark run under the
 * lead's term.
 */
import type { Api } from "grammy";
import type { Logger } from "../logging/logger.js";
import type { Translate } from "../render/i18n.js";
import type { Store } from "../store/index.js";
import { deliver } from "../telegram/delivery.js";
import type { Pacer } from "../telegram/pacer.js";
import type { LeadFence } from "../cluster/index.js";
import { LeaderTerm } from "./leaderTerm.js";

export interface RelinkDeps {
  store: Store;
  api: Api;
  pacer: Pacer;
  translate: Translate;
  logger: Logger;
  /** The lead's term: a chat is asked only while the term this job started in is current. */
  fence?: LeadFence;
}

export class RelinkNotices {
  private abort = new AbortController();
  private running: Promise<void> | undefined;
  private readonly lead: LeaderTerm;

  constructor(private readonly deps: RelinkDeps) {
    this.lead = new LeaderTerm(deps.fence, deps.logger, "relink notices");
  }

  /** Starts telling the marked chats in the background (no-op when there are none). */
  start(): void {
    // Started again after stop(): this process leads again; chats still marked are asked then.
    if (this.abort.signal.aborted) {
      this.abort = new AbortController();
      this.running = undefined;
    }
    if (!this.running) this.lead.begin();
    this.running ??= this.run().catch((err: unknown) => this.deps.logger.error({ err }, "could not ask chats to link again"));
  }

  /** Resolves when every marked chat was handled (tests). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const { store, api, pacer, translate, logger } = this.deps;
    const marked = [...await store.allChats()].filter((c) => c.keyLost).map((c) => c.chatId);
    let stopped = false;
    for (const chatId of marked) {
      const chat = await store.getChat(chatId);
      if (!chat?.keyLost) continue;
      const asked = await this.lead.run(async () => {
        if (chat.apiKeyEnc !== undefined || chat.inactive) {
          await store.updateChat(chatId, { keyLost: undefined });
          return;
        }
        const text = translate(chat.lang ?? "id", "key-lost-relink");
        const r = await deliver(() => api.sendMessage(chatId, text), { pacer, signal: this.abort.signal });
        if (r.outcome === "stopped") stopped = true;
        else if (r.outcome === "sent" || r.outcome === "refused") await store.updateChat(chatId, { keyLost: undefined });
        else if (r.outcome === "blocked") await store.updateChat(chatId, { keyLost: undefined, inactive: true });
        else logger.warn({ chatId, err: r.error }, "could not ask a chat to link again; tried again at the next start");
      });
      if (!asked || stopped) break;
    }
    await store.flush();
  }
}
