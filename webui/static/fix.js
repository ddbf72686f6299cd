// The correction dialog (templates/_fix_dialog.html): what lies on one square, asked the same
// way on every page with a tappable board. window.tilerefFix.ask(cell, tile, seated) opens it
// and resolves to a board-text token ("E^", "e>", "?v"; no arrow where players have no seats),
// null for an empty square, or undefined when the players cancel.
"use strict";
(function () {
  const dialog = document.getElementById("fix-dialog");
  if (!dialog) return;
  const form = document.getElementById("fix-form");
  const SIDES = { "^": "South", ">": "West", "v": "North", "<": "East" };
  let settle = null;

  // How a board-text token reads to a person: "a blank facing South", "E facing West".
  function described(tile) {
    if (!tile) return "an empty square";
    const blank = tile[0] === "?" || tile[0] !== tile[0].toUpperCase();
    const what = blank ? (tile[0] === "?" ? "a blank, its letter not named" : "a blank standing for " + tile[0].toUpperCase())
                       : tile[0];
    return what + (tile.length > 1 && SIDES[tile[1]] ? ", facing " + SIDES[tile[1]] : "");
  }

  function ask(cell, tile, seated) {
    tile = tile || "";
    document.getElementById("fix-cell").textContent = cell;
    document.getElementById("fix-seen").textContent = "Now: " + described(tile) + ".";
    const blank = tile !== "" && (tile[0] === "?" || tile[0] !== tile[0].toUpperCase());
    form.letter.value = tile && tile[0] !== "?" ? tile[0].toUpperCase() : "";
    form.blank.checked = blank;
    form.arrow.value = tile.length > 1 && SIDES[tile[1]] ? tile[1] : "^";
    form.querySelector(".fix-arrow").hidden = !seated;
    dialog.dataset.seated = seated ? "1" : "";
    if (settle) settle(undefined);
    dialog.showModal();
    form.letter.focus();
    return new Promise((resolve) => { settle = resolve; });
  }

  dialog.addEventListener("close", () => {
    if (!settle) return;
    const resolve = settle;
    settle = null;
    const choice = dialog.returnValue;
    if (choice === "empty") { resolve(null); return; }
    const letter = form.letter.value.trim();
    if (choice !== "set" || (!letter && !form.blank.checked)) { resolve(undefined); return; }
    // A letter typed in lower case is a blank too, as board text writes one.
    const blank = form.blank.checked || (letter !== "" && letter !== letter.toUpperCase());
    let token = blank ? (letter ? letter.toLowerCase() : "?") : letter.toUpperCase();
    if (dialog.dataset.seated) token += form.arrow.value;
    resolve(token);
  });

  // Board text (15 lines of 15 space-separated tokens, or 15 characters) with one square
  // changed, in the spaced form: what a page that holds the board as text sends back.
  function withToken(text, name, token) {
    const rows = text.split("\n").filter((line) => line.trim() && !line.trim().startsWith("#"))
      .map((line) => (/\s/.test(line.trim()) ? line.trim().split(/\s+/) : [...line.trim()]));
    const col = name.charCodeAt(0) - 65, row = Number(name.slice(1)) - 1;
    rows[row][col] = token || ".";
    return rows.map((tokens) => tokens.join(" ")).join("\n") + "\n";
  }

  window.tilerefFix = { ask, described, withToken };
})();
