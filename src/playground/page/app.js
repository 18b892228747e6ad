// The playground page: a Telegram-like chat driven by /api (see src/playground/web.ts). Plain
// JavaScript, no build step. Message HTML comes sanitized from the server (view.ts). Over 350
// lines as one file on purpose: the page loads it without a bundler, and its parts share one state
// (its words are in words.js).
/* global window, document, fetch, EventSource, FileReader, localStorage, navigator, setTimeout, clearTimeout, setInterval */
import { WORDS } from "./words.js";
import { pendingEntry } from "./panel.js";
import { isStartLink, showOpenAs } from "./startLink.js";

const $ = (id) => document.getElementById(id);
const state = { botUsername: "", users: [], current: undefined, unread: new Map(), commands: [], newcomerKey: "", lang: "id", locale: "id", generation: undefined, heard: false };

const w = (key) => (WORDS[state.lang] ?? WORDS.id)[key];
/** A phone's width: the panel is not beside the chat but a sheet over it (style.css). */
const narrow = window.matchMedia("(max-width: 800px)");

/** Puts the page's words in `lang`: every element marked data-w, the placeholders and titles. */
function applyLang(lang) {
  state.lang = lang === "en" ? "en" : "id";
  // Numbers as the bot writes them in that language (src/render/format.ts): a third language's own way.
  const locale = lang === "en" ? "en-GB" : lang || "id";
  if (locale !== state.locale) {
    state.locale = locale;
    void refreshPending().catch(() => undefined);
  }
  document.documentElement.lang = state.lang;
  for (const el of document.querySelectorAll("[data-w]")) el.textContent = w(el.dataset.w);
  for (const el of document.querySelectorAll(".meta[data-edited]")) el.textContent = `${w("edited")} ${el.dataset.edited}`;
  $("input").placeholder = w("placeholder");
  $("attach").title = w("attach");
  $("send").title = w("send");
  $("menu-btn").title = w("menu");
  $("lang").setAttribute("aria-label", w("language"));
  $("welcome-text").textContent = w("welcome")(state.newcomerKey, narrow.matches);
  $("key-text").textContent = w("keyHint")(state.newcomerKey);
  for (const b of document.querySelectorAll(".lang button")) b.classList.toggle("on", b.dataset.lang === state.lang);
}

function roleLabel(u) {
  const kind = w(u.role) ?? u.role;
  // A cashier or a downline has no key of its own: each uses its owner's; a shop's customer has none either.
  if (u.role === "cashier" || u.role === "customer" || u.role === "downline") return kind;
  return u.role === "admin" && !u.linked ? kind : `${kind} · ${u.linked ? w("linked") : w("notLinked")}`;
}

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}

function user() {
  return state.users.find((u) => u.id === state.current);
}

// ---- chat ----------------------------------------------------------------------------------

function time(date) {
  const d = new Date(date * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function renderMessage(m) {
  const id = `m-${m.chatId}-${m.id}`;
  let el = document.getElementById(id);
  if (m.deleted) {
    el?.remove();
    return;
  }
  const list = $("messages");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
  const fresh = !el;
  if (fresh) {
    el = document.createElement("div");
    el.id = id;
    el.dataset.id = String(m.id);
    // Messages keep their order by id, whatever order the events came in.
    const after = [...list.children].find((c) => Number(c.dataset.id) > m.id);
    list.insertBefore(el, after ?? null);
  }
  el.className = `msg ${m.from}`;
  el.dataset.kind = m.kind;
  el.replaceChildren();
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  if (m.file?.image) {
    const img = document.createElement("img");
    img.className = "photo";
    img.alt = "photo";
    img.src = `/api/file/${m.chatId}/${m.id}?v=${m.edited ? m.editDate ?? m.date : 0}`;
    img.addEventListener("load", () => {
      if (atBottom) list.scrollTop = list.scrollHeight;
    });
    img.addEventListener("click", () => openViewer(img.src)); // full size, as a tap in Telegram
    bubble.append(img);
  } else if (m.file) {
    const a = document.createElement("a");
    a.className = "doc";
    a.href = `/api/file/${m.chatId}/${m.id}`;
    a.download = m.file.name;
    a.textContent = m.file.name;
    bubble.append(a);
  }
  if (m.html !== "") {
    const text = document.createElement("div");
    text.className = "text";
    text.innerHTML = m.html; // sanitized by the server: only Telegram's tags, rebuilt
    for (const s of text.querySelectorAll(".spoiler")) s.addEventListener("click", () => s.classList.add("shown"));
    bubble.append(text);
  }
  const meta = document.createElement("div");
  meta.className = "meta";
  // An edited message shows when it was edited, as Telegram does; the send time on hover.
  meta.textContent = m.edited ? `${w("edited")} ${time(m.editDate ?? m.date)}` : time(m.date);
  if (m.edited) meta.dataset.edited = time(m.editDate ?? m.date);
  meta.title = time(m.date);
  bubble.append(meta);
  el.append(bubble);
  if (m.keyboard.length > 0) {
    const kb = document.createElement("div");
    kb.className = "kb";
    for (const row of m.keyboard) {
      const r = document.createElement("div");
      r.className = "kb-row";
      for (const b of row) {
        if (b.url !== undefined) {
          const a = document.createElement("a");
          a.href = b.url;
          a.target = "_blank";
          a.rel = "noopener noreferrer";
          a.textContent = `${b.text} ↗`;
          r.append(a);
        } else {
          const btn = document.createElement("button");
          btn.type = "button";
          btn.textContent = b.text;
          if (b.data !== undefined) btn.addEventListener("click", () => void press(m, b.data));
          if (b.copy !== undefined) {
            btn.addEventListener("click", () => {
              void navigator.clipboard?.writeText(b.copy).catch(() => undefined);
              btn.textContent = `${b.text} ✓`;
            });
          }
          r.append(btn);
        }
      }
      kb.append(r);
    }
    el.append(kb);
  }
  if (fresh || atBottom) list.scrollTop = list.scrollHeight;
}

async function press(m, data) {
  welcomeDone();
  await api(`/api/chat/${state.current}/press`, { messageId: m.id, data });
  wroteAgain();
}

/** This bot's start link opens in the chat the page is told (startLink.js). */
function openAs(url) {
  showOpenAs(url, state.users, {
    label: (u) => `${u.name} · ${roleLabel(u)}`,
    open: async (u) => {
      welcomeDone();
      await openChat(u.id);
      await api(`/api/chat/${u.id}/open`, { url }).then((r) => r.error && toast(r.error));
    },
  });
}

function showUser(u) {
  const at = state.users.findIndex((x) => x.id === u.id);
  if (at >= 0) state.users[at] = u;
  if (u.id !== state.current) return;
  applyLang(u.lang);
  $("chat-sub").textContent = `${u.name} · ${roleLabel(u)}`;
  $("blocked-bar").hidden = !u.blocked;
  showKeyBar();
  $("block").hidden = u.blocked;
  renderUsers();
}

// As from the chat's menu in Telegram: the bot hears it, and what it sends here is refused until unblocked.
async function setBlocked(blocked) {
  const r = await api(`/api/chat/${state.current}/block`, { blocked });
  showUser({ ...user(), blocked: r.blocked });
}

// A chat that never talked to the bot shows START in place of the text box, as Telegram does.
function showStart() {
  const empty = $("messages").querySelector(".msg") === null;
  $("start").hidden = !empty;
  $("composer").hidden = empty;
  showKeyBar();
}

/** A newcomer without a key: the chat offers the sandbox key (the first-visit hint may be long gone). */
function showKeyBar() {
  const u = user();
  const empty = $("messages").querySelector(".msg") === null;
  $("key-bar").hidden = !(u && u.role === "newcomer" && !u.linked && !empty);
}

/** The first-visit hint leaves once the user is under way (a sale, a tap): it covered the chat, the toasts too. */
function welcomeDone() {
  if ($("welcome").hidden) return;
  localStorage.setItem("playground-welcome", state.generation);
  $("welcome").hidden = true;
}

async function openChat(id) {
  state.current = id;
  state.unread.delete(id);
  const chat = await api(`/api/chat/${id}`);
  showUser(chat.user);
  $("messages").replaceChildren();
  for (const m of chat.messages) renderMessage(m);
  showStart();
  setCommands(chat.commands);
}

// The bot's language (after /bahasa) and the link (after a key) show on the page as they change.
let userTimer;
function refreshUserSoon() {
  clearTimeout(userTimer);
  userTimer = setTimeout(async () => {
    const id = state.current;
    const before = user()?.lang;
    const chat = await api(`/api/chat/${id}`);
    if (id !== state.current) return;
    showUser(chat.user);
    if (chat.user.lang !== before) setCommands(chat.commands);
  }, 200);
}

function openViewer(src) {
  $("viewer-img").src = src;
  $("viewer").hidden = false;
}

async function send(text) {
  if (text.trim() === "") return;
  if (!/^\/start\b/.test(text.trim())) welcomeDone();
  await api(`/api/chat/${state.current}/send`, { text });
  wroteAgain();
}

/** Writing to a bot one blocked unblocks it (the server did so before delivering). */
function wroteAgain() {
  if (user()?.blocked) showUser({ ...user(), blocked: false });
}

// The attach button: the picked image goes as a photo, the text box as its caption. The server
// checks again (and answers why it refused); these checks only spare a useless upload.
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
async function sendPhoto(file) {
  if (file.type !== "image/png" && file.type !== "image/jpeg") return toast(w("photoType"));
  if (file.size > PHOTO_MAX_BYTES) return toast(w("photoSize"));
  const data = await new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  const input = $("input");
  const caption = input.value;
  input.value = "";
  const r = await api(`/api/chat/${state.current}/photo`, { data, caption });
  if (r.error) toast(r.error);
}

// ---- command menu --------------------------------------------------------------------------

function setCommands(commands) {
  state.commands = commands;
  const box = $("commands");
  box.replaceChildren();
  for (const c of commands) {
    const b = document.createElement("button");
    b.type = "button";
    const name = document.createElement("b");
    name.textContent = `/${c.command}`;
    const desc = document.createElement("span");
    desc.textContent = c.description;
    b.append(name, desc);
    b.addEventListener("click", () => {
      box.hidden = true;
      void send(`/${c.command}`);
    });
    box.append(b);
  }
  $("menu-btn").hidden = commands.length === 0;
}

// ---- toasts and alerts (answerCallbackQuery) -----------------------------------------------

let toastTimer;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), 2500);
}

function alertBox(text) {
  $("alert-text").textContent = text;
  $("alert").hidden = false;
}

// ---- side panel ----------------------------------------------------------------------------

function renderUsers() {
  const list = $("users");
  list.replaceChildren();
  for (const u of state.users) {
    const li = document.createElement("li");
    li.className = u.id === state.current ? "on" : "";
    li.dataset.user = String(u.id);
    const who = document.createElement("div");
    who.textContent = u.name;
    const role = document.createElement("small");
    role.textContent = roleLabel(u);
    who.append(role);
    li.append(who);
    const n = state.unread.get(u.id);
    if (n) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = String(n);
      li.append(badge);
    }
    li.addEventListener("click", () => {
      $("side").classList.remove("open"); // the sheet on a phone closes on the chosen chat
      void openChat(u.id);
    });
    list.append(li);
  }
}

const rupiah = (n) => `Rp${Number(n).toLocaleString(state.locale, { maximumFractionDigits: 0 })}`;

async function refreshPending() {
  const { pending, latencyMs } = await api("/api/sandbox");
  $("latency").value = String(latencyMs);
  const list = $("pending");
  list.replaceChildren();
  if (pending.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = w("nothing");
    list.append(li);
  }
  for (const p of pending) {
    const li = document.createElement("li");
    li.dataset.ref = p.refId;
    const name = (id) => state.users.find((u) => u.id === id)?.name ?? String(id);
    const role = (id) => state.users.find((u) => u.id === id)?.role;
    const { text, actions } = pendingEntry(p, { w, name, rupiah, api, role });
    li.textContent = text;
    li.append(document.createElement("br"));
    for (const [label, act] of actions) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.addEventListener("click", async () => {
        b.disabled = true;
        await act();
        await refreshPending();
      });
      li.append(b);
    }
    list.append(li);
  }
}

let pendingTimer;
function refreshPendingSoon() {
  clearTimeout(pendingTimer);
  pendingTimer = setTimeout(() => void refreshPending().catch(() => undefined), 300);
}

// ---- wiring --------------------------------------------------------------------------------

/**
 * The feed came back (the playground restarted): what was sent meanwhile is fetched again, and after
 * a reset (a new generation) the old chats go: its message ids start over, so keeping them would
 * write new answers over old bubbles.
 */
async function catchUp(generation) {
  if (generation !== state.generation) {
    state.generation = generation;
    state.unread.clear();
    $("welcome").hidden = localStorage.getItem("playground-welcome") === generation;
    state.users = (await api("/api/users")).users;
  }
  await openChat(state.current);
  await refreshPending();
}

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("hello", (e) => {
    const { generation } = JSON.parse(e.data);
    const again = state.heard;
    state.heard = true;
    if (again || generation !== state.generation) void catchUp(generation).catch(() => undefined);
  });
  events.addEventListener("message", (e) => {
    const m = JSON.parse(e.data);
    if (m.chatId === state.current) {
      renderMessage(m);
      showStart();
      if (m.from === "bot") refreshUserSoon();
    } else if (m.from === "bot" && !m.deleted && !m.edited) {
      state.unread.set(m.chatId, (state.unread.get(m.chatId) ?? 0) + 1);
      renderUsers();
    }
    refreshPendingSoon();
  });
  events.addEventListener("toast", (e) => {
    const t = JSON.parse(e.data);
    if (t.chatId !== state.current) return;
    if (t.alert) alertBox(t.text);
    else toast(t.text);
  });
  events.addEventListener("commands", () => {
    void api(`/api/chat/${state.current}`).then((c) => setCommands(c.commands));
  });
}

async function main() {
  const { users, newcomerKey, generation, botUsername } = await api("/api/users");
  state.users = users;
  state.botUsername = botUsername;
  state.newcomerKey = newcomerKey;
  state.generation = generation;
  applyLang(users[0].lang);
  // The first visit explains the page; it stays away once dismissed (until a reset: a new playground).
  $("welcome").hidden = localStorage.getItem("playground-welcome") === generation;
  $("welcome-ok").addEventListener("click", welcomeDone);
  $("key-send").addEventListener("click", () => void send(state.newcomerKey));
  $("panel-btn").addEventListener("click", () => $("side").classList.toggle("open"));
  $("panel-close").addEventListener("click", () => $("side").classList.remove("open"));
  narrow.addEventListener("change", () => applyLang(state.lang));
  $("start").addEventListener("click", () => void send("/start"));
  // A first sale in one tap (then Confirm, then Settle in the panel): the quick form of /beli.
  $("try-sale").addEventListener("click", () => void send(w("trySale").replace(/^[^/]*/, "")));
  $("viewer").addEventListener("click", () => ($("viewer").hidden = true));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") $("viewer").hidden = true;
  });
  // A /command in the bot's text is a link, as in Telegram: a tap sends it.
  $("messages").addEventListener("click", (e) => {
    const cmd = e.target.closest?.(".cmd");
    if (cmd) void send(cmd.textContent);
    const link = e.target.closest?.("a[href]");
    if (link && isStartLink(link.href, state.botUsername)) {
      e.preventDefault();
      openAs(link.href);
    }
  });
  $("open-as-cancel").addEventListener("click", () => ($("open-as").hidden = true));
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("input");
    const text = input.value;
    input.value = "";
    $("commands").hidden = true;
    void send(text);
  });
  $("attach").addEventListener("click", () => $("photo-file").click());
  $("photo-file").addEventListener("change", (e) => {
    const file = e.target.files?.[0];
    e.target.value = ""; // the same file can be picked again
    if (file) void sendPhoto(file).catch(() => toast(w("photoSent")));
  });
  $("menu-btn").addEventListener("click", () => ($("commands").hidden = !$("commands").hidden));
  $("alert-ok").addEventListener("click", () => ($("alert").hidden = true));
  $("block").addEventListener("click", () => void setBlocked(true));
  $("unblock").addEventListener("click", () => void setBlocked(false));
  for (const b of document.querySelectorAll(".lang button")) {
    b.addEventListener("click", async () => {
      const r = await api(`/api/chat/${state.current}/lang`, { lang: b.dataset.lang });
      showUser({ ...user(), lang: b.dataset.lang });
      setCommands(r.commands);
    });
  }
  $("latency").addEventListener("change", (e) => void api("/api/sandbox/latency", { ms: Number(e.target.value) }));
  listen();
  await openChat(users[0].id);
  await refreshPending();
  setInterval(() => void refreshPending().catch(() => undefined), 5000);
}

void main();
