/**
 * One registry of callback data families: no two families share a first segment, so a handler of one
 * (the shop customer's gate, the staff screens, the order buttons) never reads another's buttons.
 */
import { describe, expect, it } from "vitest";
import { buttonFamilies, cb, firstSegment, sharedPrefixes } from "../../src/telegram/buttonData.js";
import { ORDER_BUTTON_FAMILY, orderButton } from "../../src/telegram/orderButtonData.js";
import { isShopfrontData, SHOP_BUTTON_FAMILIES, shopButtons } from "../../src/telegram/shopButtonData.js";

describe("callback data families", () => {
  it("no button's data is read by another button's shape (a page button once opened a PIN reset's data)", () => {
    const shapes = Object.entries(cb);
    const readByTwo: string[] = [];
    for (const [name, shape] of shapes) {
      for (const fields of shape.longest()) {
        const data = (shape.encode as (f: unknown) => string)(fields);
        for (const [other, otherShape] of shapes) if (other !== name && otherShape.decode(data) !== undefined) readByTwo.push(`${name} ${data} -> ${other}`);
      }
    }
    expect(readByTwo).toEqual([]);
  });

  it("no two families share a first segment", () => {
    expect(Object.fromEntries(sharedPrefixes(buttonFamilies()))).toEqual({});
  });

  it("the check names a shared first segment and its families (the staff screens once used the shop customer's 'sf:')", () => {
    const clash = sharedPrefixes([...buttonFamilies(), { name: "staff (old)", prefixes: ["sf"] }]);
    expect([...clash.keys()]).toEqual(["sf"]);
    expect(clash.get("sf")).toEqual(["shop: the customer's", "staff (old)"]);
  });

  it("the shop's and the orders' buttons start with the first segments their families declare", () => {
    const shopData = [
      shopButtons.home.encode({}),
      shopButtons.category.encode({ cat: "pulsa", page: 2 }),
      shopButtons.search.encode({ page: 0, query: "tsel" }),
      shopButtons.product.encode({ product: "S10" }),
      shopButtons.pay.encode({ nonce: "abcd1234" }),
      shopButtons.cancel.encode({}),
      shopButtons.orders.encode({}),
      shopButtons.contact.encode({}),
      shopButtons.settings.encode({}),
      shopButtons.enable.encode({ on: "on" }),
      shopButtons.feePayer.encode({ payer: "customer" }),
      shopButtons.categoryToggle.encode({ cat: "*" }),
      shopButtons.newLinkYes.encode({}),
    ];
    const shopPrefixes: string[] = SHOP_BUTTON_FAMILIES.flatMap((f) => [...f.prefixes]);
    for (const data of shopData) expect(shopPrefixes, data).toContain(firstSegment(data));
    const order = orderButton({ act: "alt", orderRef: "SO123456ABCDEFGH", code: "S10" });
    expect(ORDER_BUTTON_FAMILY.prefixes).toContain(firstSegment(order));
  });

  it("a staff screen's button is not taken for a shop customer's", () => {
    for (const data of [cb.staffOpen.encode({ chat: 5 }), cb.staffRemove.encode({ chat: 5 }), cb.staffCost.encode({ on: "on" })]) {
      expect(isShopfrontData(data), data).toBe(false);
      expect(cb.staffOpen.decode(cb.staffOpen.encode({ chat: 5 }))).toEqual({ chat: 5 });
    }
  });
});
