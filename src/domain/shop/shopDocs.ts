/** The store's documents API as the shop's settings, links and carts use it. */
import type { Store } from "../../store/index.js";

export type { Doc, DocKind } from "../../store/index.js";
export type DocStore = Pick<Store, "createDoc" | "getDoc" | "updateDoc" | "listDocs" | "flush">;
