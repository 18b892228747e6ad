import { describe, expect, it } from "vitest";
import { ensureCallbackToken } from "../../src/domain/providerCallbacks.js";
import { openStore, tempDir } from "./helpers.js";

describe("callback tokens", () => {
  it("find their chat after a reopen; a new token retires the old one", async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    const token = await ensureCallbackToken(store, 42);
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await ensureCallbackToken(store, 42)).toBe(token); // made once
    expect(await ensureCallbackToken(store, 43)).not.toBe(token);
    await store.close();

    const again = await openStore(dir);
    expect((await again.chatByCallbackToken(token))?.chatId).toBe(42);
    await again.updateChat(42, { callbackToken: "new-token-0123456789abcd" });
    expect(await again.chatByCallbackToken(token)).toBeUndefined();
    expect((await again.chatByCallbackToken("new-token-0123456789abcd"))?.chatId).toBe(42);
    expect(await again.chatByCallbackToken("nope")).toBeUndefined();
  });
});
