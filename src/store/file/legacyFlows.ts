/** A migration: older versions kept running flows in meta's kv (`conv:<chatId>`), now in the flow shards. */
import { legacyFlowChat } from "../rules.js";
import type { FlowState } from "../api.js";

/**
 * Moves each legacy flow out of `kv` (a flow already in the shards wins), once. Returns whether any
 * key left kv (meta.json then needs writing).
 */
export function moveLegacyFlows(kv: Map<string, unknown>, hasFlow: (chatId: number) => boolean, putFlow: (chatId: number, state: FlowState) => void): boolean {
  let moved = false;
  for (const [key, value] of [...kv]) {
    const chatId = legacyFlowChat(key);
    if (chatId === undefined) continue;
    if (!hasFlow(chatId)) putFlow(chatId, value as FlowState);
    kv.delete(key);
    moved = true;
  }
  return moved;
}
