/** The command lists set with setMyCommands, per scope and language, as Telegram resolves them. */

export interface BotCommandEntry {
  command: string;
  description: string;
}

export class CommandMenus {
  private readonly lists = new Map<string, unknown[]>();

  set(payload: Record<string, unknown>): void {
    this.lists.set(scopeKey(payload), Array.isArray(payload.commands) ? payload.commands : []);
  }

  delete(payload: Record<string, unknown>): void {
    this.lists.delete(scopeKey(payload));
  }

  get(payload: Record<string, unknown>): unknown[] {
    return this.lists.get(scopeKey(payload)) ?? [];
  }

  /**
   * The menu a private chat with `languageCode` shows: the narrowest scope with a list for that
   * language, then without a language (the chat's own scope first, when its id is given).
   */
  forPrivateChat(languageCode: string | undefined, chatId?: number): BotCommandEntry[] {
    const scopes: object[] = [{ type: "all_private_chats" }, { type: "default" }];
    if (chatId !== undefined) scopes.unshift({ type: "chat", chat_id: chatId });
    for (const scope of scopes) {
      for (const lang of languageCode ? [languageCode, ""] : [""]) {
        const list = this.lists.get(JSON.stringify([scope, lang]));
        if (list) return list as BotCommandEntry[];
      }
    }
    return [];
  }

  clear(): void {
    this.lists.clear();
  }
}

function scopeKey(payload: Record<string, unknown>): string {
  return JSON.stringify([payload.scope ?? { type: "default" }, payload.language_code ?? ""]);
}
