// A link or URL button that starts this bot (an invitation, a shop's link) opens in the page, as in
// Telegram: in the chat of whoever taps it. The page plays everyone, so it asks whose chat that is.
/* global document, URL */

/** `t.me/<bot>?start=…` or `tg://resolve?domain=<bot>&start=…` of this bot (the server checks it again: startLink.ts). */
export function isStartLink(href, botUsername) {
  try {
    const u = new URL(href);
    const web = /^https?:$/.test(u.protocol) && /^(t|telegram)\.me$/i.test(u.hostname);
    const bot = web ? u.pathname.replace(/^\/|\/$/g, "") : u.protocol === "tg:" && u.hostname === "resolve" ? u.searchParams.get("domain") : null;
    return bot !== null && bot.toLowerCase() === String(botUsername).toLowerCase() && u.searchParams.has("start");
  } catch {
    return false;
  }
}

/** Shows the chooser (#open-as): a button per user, `open(user)` on a tap. */
export function showOpenAs(url, users, { label, open }) {
  const box = document.getElementById("open-as");
  const list = document.getElementById("open-as-users");
  list.replaceChildren();
  for (const u of users) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label(u);
    b.addEventListener("click", () => {
      box.hidden = true;
      void open(u);
    });
    list.append(b);
  }
  box.hidden = false;
}
