/** What changed in the emulated chats, for a live view (the playground's page). */
import type { FakeMessage } from "./fakeMessage.js";

/**
 * A message created, edited, deleted or sent by the user; a callback query answered (toast or
 * alert); the command list set.
 */
export type EmulatorEvent =
  | { type: "message"; message: FakeMessage }
  | { type: "callbackAnswer"; callbackQueryId: string; text?: string; showAlert: boolean }
  | { type: "commands" };

export class ChangeFeed {
  private readonly listeners = new Set<(e: EmulatorEvent) => void>();

  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe(listener: (e: EmulatorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: EmulatorEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a viewer's failure is not the bot's: the API call still succeeds
      }
    }
  }
}
