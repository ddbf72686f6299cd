// The referee board: refresh on the game's event stream, and send the table's actions.
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
  window.tileref = { gameId, token, WATCH_ONLY };

  const message = document.getElementById("message");
  function say(text, bad) {
    if (!message) return;
    message.textContent = text || "";
    message.className = "message" + (bad ? " bad" : "");
  }

  async function api(path, body) {
    const response = await fetch("/api/games/" + gameId + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token() },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({ error: "the server did not answer" }));
    if (response.status === 401 || response.status === 403) { say(WATCH_ONLY, true); return null; }
    if (!response.ok) { say(data.error || "refused", true); return null; }
    return data;
  }
  window.tileref.api = api;

  let version = -1;
  async function refresh() {
    const response = await fetch("/games/" + gameId + "/panel", { cache: "no-store" });
    if (!response.ok) return;
    const html = await response.text();
    document.getElementById("panel").innerHTML = html;
    const panel = document.querySelector("#panel .panel");
    if (panel) document.body.dataset.version = panel.dataset.version;
  }
  function listen() {
    const source = new EventSource("/api/games/" + gameId + "/events");
    source.addEventListener("state", (event) => {
      const state = JSON.parse(event.data);
      if (state.version !== version) { version = state.version; refresh(); }
    });
    source.onerror = () => { /* the browser reconnects by itself */ };
  }
  listen();

  function toMove() {
    const panel = document.querySelector("#panel .panel");
    return panel ? panel.dataset.toMove : "";
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    if (button) {
      const action = button.dataset.action;
      if (action === "pass") await api("/moves", { player: toMove(), pass: true }) && say("Passed.");
      if (action === "exchange") {
        const count = parseInt(prompt("How many tiles were exchanged?", "7"), 10);
        if (count) await api("/moves", { player: toMove(), exchange: count }) && say("Exchanged.");
      }
      if (action === "undo") await api("/undo") && say("The last move was taken back.");
      if (action === "removed") await api("/removed") && say("Thanks: next turn.");
      if (action === "share") {
        const link = location.origin + location.pathname + (token() ? "#token=" + token() : "");
        prompt("Open this on another screen (with the token it can also referee):", link);
      }
      return;
    }
    const cell = event.target.closest("svg.interactive .cell");
    if (cell) openFix(cell.dataset.cell, cell.dataset.tile || "");
  });

  const form = document.getElementById("play-form");
  if (form) form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    // Lowercase letters are blanks (FORMATS.md); a word typed all in lowercase is just typing.
    let word = String(data.get("word")).trim();
    if (word === word.toLowerCase()) word = word.toUpperCase();
    const verdict = await api("/moves", { player: toMove(), word,
                                          at: data.get("at"), dir: data.get("dir") });
    if (verdict) { say(verdict.legal ? "Legal." : "Not legal: " + verdict.message, !verdict.legal); if (verdict.legal) form.reset(); }
  });

  const dialog = document.getElementById("fix-dialog");
  function openFix(cell, tile) {
    if (!dialog) return;
    document.getElementById("fix-cell").textContent = cell;
    const fixForm = document.getElementById("fix-form");
    // A blank the camera saw ("?") is named by typing its letter in lower case.
    const blank = tile.startsWith("?");
    fixForm.letter.value = tile && !blank ? tile[0] : "";
    fixForm.letter.placeholder = blank ? "a–z" : "";
    fixForm.arrow.value = tile.length > 1 ? tile[1] : (root.dataset.ruleset === "scrabble" ? "" : "^");
    dialog.dataset.cell = cell;
    dialog.showModal();
  }
  if (dialog) dialog.addEventListener("close", async () => {
    const fixForm = document.getElementById("fix-form");
    const choice = dialog.returnValue;
    if (choice !== "set" && choice !== "empty") return;
    const letter = fixForm.letter.value.trim();
    const tile = choice === "empty" || !letter ? null : letter + fixForm.arrow.value;
    const result = await api("/corrections", { cell: dialog.dataset.cell, tile });
    if (result) {
      const v = result.verdict;
      say(v ? (v.legal ? "Corrected and judged again: legal." : "Corrected; judged again: " + v.message)
            : "Corrected " + dialog.dataset.cell + ".", v && !v.legal);
    }
  });
})();
