import { describe, expect, it } from "vitest";
import { ledgerChatOf, roleOf } from "../../src/domain/roles.js";
import type { ChatRecord } from "../../src/store/index.js";

const base: ChatRecord = { chatId: 7, createdAt: 0, updatedAt: 0 };

describe("roleOf", () => {
  it("a chat with nothing is a guest, with a key an owner", () => {
    expect(roleOf(undefined)).toEqual({ kind: "guest" });
    expect(roleOf(base)).toEqual({ kind: "guest" });
    expect(roleOf({ ...base, apiKeyEnc: "x" })).toEqual({ kind: "owner" });
  });

  it("staff works with its owner's ledger, even if a key was left on its record", () => {
    const staff = roleOf({ ...base, apiKeyEnc: "x", staffOf: { owner: 42, role: "cashier", since: 1 } });
    expect(staff).toEqual({ kind: "staff", owner: 42, role: "cashier" });
    expect(ledgerChatOf(7, staff)).toBe(42);
    expect(ledgerChatOf(7, { kind: "owner" })).toBe(7);
  });

  it("a shop's customer is a customer only while it owns no key", () => {
    const customerOf = { owner: 42, code: "abc" };
    expect(roleOf({ ...base, customerOf })).toEqual({ kind: "customer", owner: 42, code: "abc" });
    expect(roleOf({ ...base, customerOf, apiKeyEnc: "x" })).toEqual({ kind: "owner" });
  });
});
