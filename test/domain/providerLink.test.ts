import { describe, expect, it } from "vitest";
import { ProviderLink } from "../../src/domain/providerLink.js";
import { openStore, tempDir } from "../store/helpers.js";

const KEY = "RAWKEY-a1b2c3d4e5f6g7h8i9j0-SECRETPART";

describe("a chat's link to its provider account", () => {
  it("a first /start waits for a key and remembers the language; a linked key is read back after a restart", async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    const link = new ProviderLink(store);
    expect(await link.isAwaitingKey(1)).toBe(true); // never seen: the next text is taken as a key
    await link.awaitKey(1, "en");
    expect((await store.getChat(1))?.lang).toBe("en");
    await link.link(1, KEY, "budi");
    expect(await link.isAwaitingKey(1)).toBe(false);
    expect(await link.isLinked(1)).toBe(true);
    expect(await link.linkedMask(1)).toMatch(/^RAWK.*PART$/);
    // Durable at once, with a callback token for the chat's callback URL.
    const again = new ProviderLink(await openStore(dir));
    expect(await again.keyOf(1)).toBe(KEY);
    const token = await again.callbackToken(1);
    expect(token).toBe(await link.callbackToken(1));
    expect((await store.getChat(1))?.providerUsername).toBe("budi");
  });

  it("/kunci on a linked chat waits for a new key without forgetting the old one", async () => {
    const link = new ProviderLink(await openStore(await tempDir()));
    await link.link(1, KEY, undefined);
    await link.awaitKey(1);
    expect(await link.isAwaitingKey(1)).toBe(true);
    expect(await link.keyOf(1)).toBe(KEY);
  });

  it("unlinks once: the key is gone and a second logout finds none", async () => {
    const link = new ProviderLink(await openStore(await tempDir()));
    expect(await link.unlink(1)).toBe(false);
    await link.link(1, KEY, "budi");
    expect(await link.unlink(1)).toBe(true);
    expect(await link.keyOf(1)).toBeUndefined();
    expect(await link.linkedMask(1)).toBeUndefined();
    expect(await link.unlink(1)).toBe(false);
  });

  it("keeps the username a renamed account now reports, never an empty one", async () => {
    const store = await openStore(await tempDir());
    const link = new ProviderLink(store);
    await link.link(1, KEY, "budi");
    const noted = await link.noteUsername((await store.getChat(1))!, "budi2");
    expect(noted.keyMask).toMatch(/^RAWK/);
    expect((await store.getChat(1))?.providerUsername).toBe("budi2");
    await link.noteUsername(noted, "");
    expect((await store.getChat(1))?.providerUsername).toBe("budi2");
  });

  it("a renewed callback token replaces the old one durably", async () => {
    const dir = await tempDir();
    const link = new ProviderLink(await openStore(dir));
    const old = await link.callbackToken(1);
    await link.renewCallbackToken(1, "new-token-0123456789abcd");
    const reopened = await openStore(dir);
    expect((await reopened.chatByCallbackToken("new-token-0123456789abcd"))?.chatId).toBe(1);
    expect(await reopened.chatByCallbackToken(old)).toBeUndefined();
  });
});
