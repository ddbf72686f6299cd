// The dispute page's board taps as the referee board's does: a tapped square is said as it
// is (the correction dialog, fix.js), the board text changes, and the board is drawn again.
"use strict";
(function () {
  const holder = document.getElementById("dispute-board");
  const form = document.getElementById("judge-form");
  if (!holder || !form || !window.tilerefFix) return;
  const problems = document.getElementById("board-problems");
  const check = JSON.parse(holder.dataset.check || "[]");

  holder.addEventListener("click", async (event) => {
    const cell = event.target.closest("svg .cell");
    if (!cell) return;
    const seated = form.elements.ruleset.value !== "scrabble";
    const fixed = await window.tilerefFix.ask(cell.dataset.cell, cell.dataset.tile || "", seated);
    if (fixed === undefined) return;
    const text = window.tilerefFix.withToken(form.elements.board.value, cell.dataset.cell, fixed);
    const response = await fetch("/api/position", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ board: text, ruleset: "archipelago", tiles: form.elements.tiles.value,
                             check: check.filter((name) => name !== cell.dataset.cell) }) });
    const data = await response.json().catch(() => ({ error: "the server did not answer" }));
    problems.innerHTML = "";
    if (!response.ok) {
      const item = document.createElement("li");
      item.textContent = data.error;
      problems.appendChild(item);
      return;
    }
    form.elements.board.value = data.board;
    holder.innerHTML = data.board_svg;
    check.splice(0, check.length, ...check.filter((name) => name !== cell.dataset.cell));
  });
})();
