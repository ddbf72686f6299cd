// The referee board: refresh on the game's event stream, and send the table's actions.
"use strict";
(function () {
  if (!window.tileref) return;
  const { root, gameId, say, post, followPanel } = window.tileref;

  // Actions on this game: "/moves", "/undo", ... under /api/games/<id>.
  const api = (path, body) => post("/api/games/" + gameId + path, body);
  window.tileref.api = api;
  const refreshPanel = followPanel("/games/" + gameId + "/panel");
  window.tileref.refreshPanel = refreshPanel;

  // The mover's play is finished: the referee judges what the camera sees (the turn protocol).
  async function done() {
    say("Judging…");
    const answer = await api("/done", {});
    if (!answer) return;
    say("");
    await refreshPanel();
  }
  // The space bar says Done, unless someone is typing or a dialog is open.
  document.addEventListener("keydown", (event) => {
    if (event.key !== " " || event.repeat || event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, button, a, dialog, [contenteditable]")) return;
    if (document.querySelector("dialog[open]")) return;
    event.preventDefault();
    done();
  });

  function toMove() {
    const panel = document.querySelector("#panel .panel");
    return panel ? panel.dataset.toMove : "";
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    if (button) {
      const action = button.dataset.action;
      if (action === "done") await done();
      if (action === "pass") await api("/moves", { player: toMove(), pass: true }) && say("Passed.");
      if (action === "exchange") {
        const answer = await window.tileref.ask("exchange-dialog", { count: "7" });
        const count = answer ? parseInt(answer.get("count"), 10) : 0;
        if (count) await api("/moves", { player: toMove(), exchange: count }) && say("Exchanged.");
      }
      if (action === "undo") await api("/undo") && say("The last move was taken back.");
      if (action === "removed") await api("/removed") && say("Thanks: next turn.");
      if (action === "restored") await api("/restored") && say("Thanks: the board is back as it was.");
      if (action === "share") await window.tileref.share();
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

  // A tapped square: say what lies there (the correction dialog, fix.js); the referee judges
  // the corrected board again where it had judged that reading.
  async function openFix(cell, tile) {
    if (!window.tilerefFix) return;
    const fixed = await window.tilerefFix.ask(cell, tile, "seated" in root.dataset);
    if (fixed === undefined) return;
    const result = await api("/corrections", { cell, tile: fixed });
    if (!result) return;
    const v = result.verdict;
    say(v ? (v.legal ? "Corrected and judged again: legal." : "Corrected; judged again: " + v.message)
          : "Corrected " + cell + ".", v && !v.legal);
    await refreshPanel();
  }
})();
