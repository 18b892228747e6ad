/** Process entry under tsx (development, tests): `tsx src/main.ts`. The build starts from boot.ts instead. */
import { runBot } from "./run.js";

runBot();
