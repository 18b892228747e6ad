/** The part of the store's documents API the shop orders use. */
import type { Store } from "../../store/index.js";

export type { Doc, DocKind } from "../../store/index.js";
export type DocStore = Pick<Store, "createDoc" | "getDoc" | "updateDoc" | "listDocs" | "flush" | "flushDoc">;
