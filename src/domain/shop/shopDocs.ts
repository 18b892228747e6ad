/** The store's documents API as the shop uses it: settings, links, carts and orders. */
import type { Store } from "../../store/index.js";

export type { Doc, DocKind } from "../../store/index.js";
export type DocStore = Pick<Store, "createDoc" | "getDoc" | "updateDoc" | "listDocs" | "flush" | "flushDoc">;
