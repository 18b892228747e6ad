import { describe, expect, it } from "vitest";
import { createTranslate } from "../../src/render/i18n.js";

describe("createTranslate", () => {
  const t = createTranslate();

  it("translates per language without isolation marks around placeables", () => {
    expect(t("en", "cancelled")).toBe("❌ Cancelled.");
    expect(t("id", "cancelled")).toBe("❌ Dibatalkan.");
    expect(t("en", "upstream-rejected", { message: "X1" })).toBe("❗ The provider refused (in Indonesian): X1");
  });

  it("falls back to {key} for a message missing in every language", () => {
    expect(t("en", "no-such-message")).toBe("{no-such-message}");
  });
});
