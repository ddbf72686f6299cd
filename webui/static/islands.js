// Islands at the table: choose a colour, tap the cells where stones went down (tap one again to
// take it back), see them with the islands they would make and the referee's preview, then
// Done; Pass; Undo. The stones tapped live here until Done: the server draws them
// (/table/<id>/panel?place=...) and judges nothing. On the live page, Done with nothing tapped
// asks the referee to judge what the camera sees (the turn protocol).
"use strict";
(function () {
  if (!window.tileref) return;
  const { root, gameId, say, sentence, post, followPanel } = window.tileref;
  const live = "live" in root.dataset;
  let placing = [];        // [[cell, colour], ...] tapped since the last move
  let colour = "";         // the colour the next tap places ("": the mover's own)
  let movesSeen = null;    // the game's moves when the stones were tapped (set below)

  const panel = () => document.querySelector("#panel .panel");
  const toMove = () => (panel() ? panel().dataset.toMove : "");
  function panelUrl() {
    const asked = new URLSearchParams();
    if (placing.length) asked.set("place", JSON.stringify(placing));
    if (colour) asked.set("colour", colour);
    const query = asked.toString();
    return "/table/" + gameId + "/panel" + (query ? "?" + query : "");
  }
  const refresh = followPanel(panelUrl, () => {
    // Another screen (or the camera) moved meanwhile: the stones tapped here are stale.
    const moves = Number(panel().dataset.moves);
    if (movesSeen !== null && moves !== movesSeen && placing.length) {
      placing = [];
      say("The game moved on: tap the stones again.", true);
      refresh(true);
    }
    movesSeen = moves;
  });
  window.tileref.refreshPanel = () => refresh(true);
  if (panel()) movesSeen = Number(panel().dataset.moves);

  function forget() { placing = []; colour = ""; }

  async function move(body) {
    const verdict = await post("/api/games/" + gameId + "/moves", body);
    if (!verdict) return null;
    if (verdict.legal) { forget(); say(""); }
    else say("Not legal: " + sentence(verdict.message || verdict.reason), true);
    await refresh(true);
    return verdict;
  }

  async function done() {
    if (placing.length) return move({ player: toMove(), place: placing });
    if (!live) {
      say("Tap the cells where the stones went down (choose their colour first), then Done.", true);
      return null;
    }
    say("Judging…");
    const answer = await post("/api/games/" + gameId + "/done", {});
    if (!answer) return null;
    say("");
    await refresh(true);
    return answer;
  }

  function tap(cell) {
    const data = panel().dataset;
    if (data.over === "yes") return;
    const at = placing.findIndex(([name]) => name === cell.dataset.cell);
    if (at >= 0) {
      placing.splice(at, 1);
    } else if (cell.dataset.stone) {
      say(cell.dataset.cell + " already holds a stone.", true);
      return;
    } else if (placing.length >= Number(data.allowed)) {
      say("This turn allows " + data.allowed + (data.allowed === "1" ? " stone" : " stones") +
          ": tap a stone to take it back.", true);
      return;
    } else {
      placing.push([cell.dataset.cell, colour || data.chosen]);
    }
    say("");
    refresh(true);
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    if (button) {
      const action = button.dataset.action;
      if (action === "colour") { colour = button.dataset.colour; await refresh(true); }
      if (action === "done") await done();
      if (action === "clear") { placing = []; say(""); await refresh(true); }
      if (action === "pass") await move({ player: toMove(), pass: true });
      if (action === "undo" && await post("/api/games/" + gameId + "/undo", {})) {
        forget();
        say("The last move was taken back.");
        await refresh(true);
      }
      if (action === "share") await window.tileref.share();
      return;
    }
    const cell = event.target.closest("svg.hexboard.interactive .hexcell");
    if (cell) tap(cell);
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
    const cell = event.target.closest && event.target.closest("svg.hexboard.interactive .hexcell");
    if (cell && (event.key === "Enter" || event.key === " ")) {  // a cell reached with Tab
      event.preventDefault();
      tap(cell);
      return;
    }
    // The space bar says Done, unless someone is typing or a dialog is open.
    if (event.key !== " ") return;
    if (event.target.closest("input, textarea, select, button, a, dialog, [contenteditable]")) return;
    if (document.querySelector("dialog[open]")) return;
    event.preventDefault();
    done();
  });
})();
