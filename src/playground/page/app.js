// The playground page: a Telegram-like chat driven by /api (see src/playground/web.ts). Plain
// JavaScript, no build step. Message HTML comes sanitized from the server (view.ts).
/* global document, fetch, EventSource, FileReader, setTimeout, clearTimeout, setInterval */

const $ = (id) => document.getElementById(id);
const state = { users: [], current: undefined, unread: new Map(), commands: [] };

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
    img.src = `/api/file/${m.chatId}/${m.id}?v=${m.edited ? Date.now() : 0}`;
    img.addEventListener("load", () => {
      if (atBottom) list.scrollTop = list.scrollHeight;
    });
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
  meta.textContent = `${m.edited ? "edited " : ""}${time(m.date)}`;
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
  await api(`/api/chat/${state.current}/press`, { messageId: m.id, data });
}

async function openChat(id) {
  state.current = id;
  state.unread.delete(id);
  renderUsers();
  const u = user();
  $("chat-sub").textContent = `${u.name} · ${u.role}`;
  for (const b of document.querySelectorAll(".lang button")) b.classList.toggle("on", b.dataset.lang === u.lang);
  $("input").placeholder = u.lang === "en" ? "Message" : "Pesan";
  const chat = await api(`/api/chat/${id}`);
  $("messages").replaceChildren();
  for (const m of chat.messages) renderMessage(m);
  setCommands(chat.commands);
}

async function send(text) {
  if (text.trim() === "") return;
  await api(`/api/chat/${state.current}/send`, { text });
}

// The attach button: the picked image goes as a photo, the text box as its caption. The server
// checks again (and answers why it refused); these checks only spare a useless upload.
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
async function sendPhoto(file) {
  if (file.type !== "image/png" && file.type !== "image/jpeg") return toast("PNG or JPEG images only");
  if (file.size > PHOTO_MAX_BYTES) return toast("A photo of at most 5 MB");
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
    role.textContent = u.role;
    who.append(role);
    li.append(who);
    const n = state.unread.get(u.id);
    if (n) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = String(n);
      li.append(badge);
    }
    li.addEventListener("click", () => void openChat(u.id));
    list.append(li);
  }
}

const rupiah = (n) => `Rp${Number(n).toLocaleString("id-ID")}`;

async function refreshPending() {
  const { pending, latencyMs } = await api("/api/sandbox");
  $("latency").value = String(latencyMs);
  const list = $("pending");
  list.replaceChildren();
  if (pending.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "Nothing pending.";
    list.append(li);
  }
  for (const p of pending) {
    const li = document.createElement("li");
    li.dataset.ref = p.refId;
    const who = state.users.find((u) => u.id === p.chatId)?.name ?? p.chatId;
    li.textContent = `${who}: ${p.kind} ${p.title ?? ""} ${p.target ?? ""} ${rupiah(p.amount)} (${p.status})`;
    const actions = p.kind === "deposit"
      ? [["Customer pays", () => api("/api/sandbox/pay", { refId: p.refId })]]
      : [
          ["Settle: success", () => api("/api/sandbox/settle", { refId: p.refId, outcome: "success" })],
          ["Settle: failed", () => api("/api/sandbox/settle", { refId: p.refId, outcome: "failed" })],
        ];
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

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("message", (e) => {
    const m = JSON.parse(e.data);
    if (m.chatId === state.current) renderMessage(m);
    else if (m.from === "bot" && !m.deleted && !m.edited) {
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
  const { users } = await api("/api/users");
  state.users = users;
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
    if (file) void sendPhoto(file).catch(() => toast("The photo could not be sent"));
  });
  $("menu-btn").addEventListener("click", () => ($("commands").hidden = !$("commands").hidden));
  $("alert-ok").addEventListener("click", () => ($("alert").hidden = true));
  for (const b of document.querySelectorAll(".lang button")) {
    b.addEventListener("click", async () => {
      const r = await api(`/api/chat/${state.current}/lang`, { lang: b.dataset.lang });
      user().lang = b.dataset.lang;
      for (const x of document.querySelectorAll(".lang button")) x.classList.toggle("on", x === b);
      $("input").placeholder = b.dataset.lang === "en" ? "Message" : "Pesan";
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
