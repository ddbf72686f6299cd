// What every table screen shares: the game's token, the one message line, posting to the JSON
// API, and following the game's event stream to redraw the panel. The screens' own scripts
// (app.js for archipelago and scrabble, variants.js for colonization and First Draft) use it
// through window.tileref.
"use strict";
(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.game;
  const key = "tileref-token-" + gameId;
  // A token arrives with the page (this device created the game) or in the link's #token=...
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (root.dataset.token) localStorage.setItem(key, root.dataset.token);
  if (fromHash) { localStorage.setItem(key, fromHash); history.replaceState(null, "", location.pathname); }
  const token = () => localStorage.getItem(key) || "";
  // Without the game's token a screen can watch but not referee.
  const WATCH_ONLY = "This screen can only watch: to referee from it, open the link from " +
                     "Share… on the device that started the game.";

  function say(text, bad) {
    const message = document.getElementById("message");
    if (!message) return;
    message.textContent = text || "";
    message.className = "message" + (bad ? " bad" : "");
  }
  // The server's one-line errors, shown as a sentence: a capital first, a full stop last.
  function sentence(text) {
    const line = String(text || "").trim();
    if (!line) return "";
    const upper = line[0].toUpperCase() + line.slice(1);
    return /[.!?]$/.test(upper) ? upper : upper + ".";
  }

  // POST JSON (or a FormData photo) with the token; on a refusal say why and answer null.
  async function post(path, body, isForm) {
    const headers = { "Authorization": "Bearer " + token() };
    if (!isForm) headers["Content-Type"] = "application/json";
    const response = await fetch(path, { method: "POST", headers,
                                         body: isForm ? body : JSON.stringify(body || {}) });
    const data = await response.json().catch(() => ({ error: "the server did not answer" }));
    if (response.status === 401 || response.status === 403) { say(WATCH_ONLY, true); return null; }
    if (!response.ok) { say(sentence(data.error || "refused"), true); return null; }
    return data;
  }

  // Redraw #panel from panelUrl (an address, or a function giving one) whenever the game
  // changes. A panel is only ever replaced by a newer one, so a late answer for an older
  // version does not wipe what someone is typing; refresh(true) redraws the same version too
  // (what the panel shows besides the game changed: islands' stones tapped), and only its
  // latest request is drawn. ``after`` runs once a panel is drawn.
  function followPanel(panelUrl, after) {
    const first = document.querySelector("#panel .panel");
    let shown = first ? Number(first.dataset.version) : -1;
    let asked = 0;
    async function refresh(force) {
      const mine = ++asked;
      const address = typeof panelUrl === "function" ? panelUrl() : panelUrl;
      const response = await fetch(address, { cache: "no-store" });
      if (!response.ok) return;
      const html = await response.text();
      const holder = document.createElement("div");
      holder.innerHTML = html;
      const fresh = holder.querySelector(".panel");
      if (!fresh) return;
      const version = Number(fresh.dataset.version);
      if (force === true ? mine !== asked || version < shown : version <= shown) return;
      shown = version;
      document.getElementById("panel").innerHTML = html;
      document.body.dataset.version = String(version);
      if (after) after();
    }
    const source = new EventSource("/api/games/" + gameId + "/events");
    source.addEventListener("state", (event) => {
      const state = JSON.parse(event.data);
      if (state.version < shown) shown = -1;  // the server restarted: its count began again
      if (state.version !== shown) refresh();
    });
    source.onerror = () => { /* the browser reconnects by itself */ };
    return refresh;
  }

  // One of the table's dialogs (templates/_dialogs.html): ``values`` fill its fields; the
  // answer is its fields (FormData) when confirmed, null when cancelled.
  function ask(id, values) {
    const dialog = document.getElementById(id);
    if (!dialog) return Promise.resolve(null);
    const form = dialog.querySelector("form");
    for (const [name, value] of Object.entries(values || {})) form.elements[name].value = value;
    dialog.returnValue = "";
    dialog.showModal();
    return new Promise((resolve) => dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" ? new FormData(form) : null);
    }, { once: true }));
  }
  // The link that opens this game on another screen, with its token when this one has it.
  async function share() {
    const link = location.origin + location.pathname + (token() ? "#token=" + token() : "");
    const dialog = document.getElementById("share-dialog");
    if (!dialog) return;
    const copy = dialog.querySelector("[data-copy]");
    copy.onclick = async () => {
      const field = dialog.querySelector("input[name=link]");
      field.select();
      try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; }
      catch (error) { document.execCommand("copy"); copy.textContent = "Copied"; }
    };
    copy.textContent = "Copy the link";
    await ask("share-dialog", { link });
  }

  window.tileref = { root, gameId, token, WATCH_ONLY, say, sentence, post, followPanel, ask, share };
})();
