/**
 * Sandbox mode's stand-in for the provider dashboard's callback setting: the built-in sandbox's
 * callbacks for an api key go to every chat linked with it (demo chats share keys), over HTTP to
 * the bot's own server when it has one, else straight into the same route in-process, so sandbox
 * mode shows instant notices with no setup.
 */
import { callbackUrl } from "../domain/providerCallbacks.js";
import type { Sandbox, CallbackPost } from "../sandbox/index.js";
import type { ProviderCallbackDeps } from "./providerCallback.js";
import type { Store } from "../store/index.js";

/** The origin of callback URLs delivered in-process (never dialled). */
const IN_PROCESS_ORIGIN = "http://in-process.invalid";

/** `httpBase`: the bot's own HTTP server; undefined = deliver in-process (the route is built with the first callback). */
export function connectSandboxCallbacks(sandbox: Sandbox, store: Store, deps: ProviderCallbackDeps, httpBase?: string): void {
  if (httpBase !== undefined) {
    sandbox.setCallbackTarget((apiKey) => callbackUrls(store, httpBase, apiKey));
    return;
  }
  let route: Promise<CallbackPost> | undefined;
  const localRoute = async (): Promise<CallbackPost> => {
    const { callbackPost, ProviderCallbacks } = await import("./providerCallback.js");
    return callbackPost(new ProviderCallbacks(deps));
  };
  sandbox.setCallbackTarget(
    (apiKey) => callbackUrls(store, IN_PROCESS_ORIGIN, apiKey),
    async (url, init) => (await (route ??= localRoute()))(url, init),
  );
}

/**
 * The callback URL of every chat linked with `apiKey`, also one that blocked the bot (linkedChats()
 * leaves those out): a provider calls the URL it was given whatever the chat did in Telegram.
 */
async function callbackUrls(store: Store, base: string, apiKey: string): Promise<string[]> {
  const urls: string[] = [];
  for (const chat of await store.allChats()) {
    if (chat.callbackToken === undefined || chat.apiKeyEnc === undefined) continue;
    try {
      if (await store.getApiKey(chat.chatId) === apiKey) urls.push(callbackUrl(base, chat.callbackToken));
    } catch {
      // unreadable key: not this one
    }
  }
  return urls;
}
