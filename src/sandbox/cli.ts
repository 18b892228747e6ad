/** `npm run sandbox`: the simulator on 127.0.0.1 for trying the bot without a real key. */
import { createSandbox } from "./index.js";

const port = Number(process.env.PORT ?? process.argv[2] ?? 8787);
const sandbox = await createSandbox({ port: Number.isInteger(port) ? port : 8787, autoPayDepositsAfterMs: 20_000 });

console.log(`Sandbox reseller API listening on ${sandbox.url}`);
console.log(`Demo api key: ${sandbox.demoKey}`);
console.log("Deposits are paid automatically after 20 s. Ctrl+C to stop.");

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  console.log("\nStopping sandbox...");
  void sandbox.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
