// Colonization Mode and First Draft at the table: send the table's actions to the referee
// (the JSON API) and redraw the panel whenever the game's event stream says it changed.
"use strict";
(function () {
  if (!window.tileref) return;
  const { gameId, say, sentence, post, followPanel } = window.tileref;

  async function move(body, path) {
    const verdict = await post(path || "/api/games/" + gameId + "/moves", body);
    if (!verdict) return null;
    if (verdict.legal) say("");
    else say("Not legal: " + sentence(verdict.message || verdict.reason), true);
    await refresh();
    return verdict;
  }

  const refresh = followPanel("/table/" + gameId + "/panel");

  const panel = () => document.querySelector("#panel .panel");
  const toMove = () => (panel() ? panel().dataset.toMove : "");
  const letters = (value) => String(value || "").replace(/[^A-Za-z?]/g, "");

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    const action = button.dataset.action;
    if (action === "share") {
      event.preventDefault();
      await window.tileref.share();
    }
    // colonization
    if (action === "agree") await move({ player: button.dataset.player, agree: button.dataset.value === "yes" });
    if (action === "english-referee") await move({}, "/api/games/" + gameId + "/english");
    if (action === "pass") await move({ player: toMove(), pass: true });
    // Undo takes back the last legal move in every ruleset (the table's one undo).
    if (action === "undo" && await post("/api/games/" + gameId + "/undo", {})) {
      say("The last move was taken back.");
      await refresh();
    }
    if (action === "exchange") {
      const answer = await window.tileref.ask("exchange-dialog", { count: "7" });
      const count = answer ? parseInt(answer.get("count"), 10) : 0;
      if (count) await move({ player: toMove(), exchange: count });
    }
    // first draft
    if (action === "coaster") await move({ player: toMove(), coaster: Number(button.dataset.position) });
    if (action === "sell") await move({ player: button.dataset.player, sell: Number(button.dataset.row) });
    if (action === "discard") await move({ player: button.dataset.player, discard: Number(button.dataset.row) });
  });

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.method === "dialog") return;  // a dialog's answer (tileref.ask), not a move
    const data = new FormData(form);
    event.preventDefault();
    if (form.classList.contains("lang-form")) {
      let language = String(data.get("language")).trim();
      if (language === language.toLowerCase()) language = language.toUpperCase();  // just typing
      await move({ player: form.dataset.player, language });
    } else if (form.id === "english-form") {
      await move({ draws: letters(data.get("draws")).toUpperCase().split("") },
                 "/api/games/" + gameId + "/english");
    } else if (form.id === "colony-play") {
      let word = String(data.get("word")).trim();
      if (word === word.toLowerCase()) word = word.toUpperCase();  // all lower case is just typing
      await move({ player: toMove(), word, at: String(data.get("at")).trim(), dir: data.get("dir") });
    } else if (form.id === "duel-form") {
      const [at, dir] = String(data.get("target")).split(" ");
      await move({ player: toMove(), transform: { at, dir },
                   actor_tile: String(data.get("actor_tile")).trim().toUpperCase(),
                   owner_tile: String(data.get("owner_tile")).trim().toUpperCase() });
    } else if (form.id === "racks-form") {
      const racks = {};
      for (const [name, value] of data.entries()) racks[name] = letters(value).toUpperCase();
      await move({ player: form.dataset.player, end: { racks } });
    } else if (form.id === "place-form") {
      await move({ player: toMove(), place: {
        rows: [letters(data.get("row1")).toUpperCase(), letters(data.get("row2")).toUpperCase()],
        pool: letters(data.get("pool")).toUpperCase(),
        face_down: letters(data.get("face_down")).toUpperCase() } });
    } else if (form.classList.contains("pool-form")) {
      await move({ player: form.dataset.player, place: {
        rows: [letters(data.get("row1")).toUpperCase(), letters(data.get("row2")).toUpperCase()] } });
    }
  });

  // First Draft, placing by tapping: a letter tapped goes to the row last tapped, at its cursor,
  // and leaves the pool (the face-down overflow moves up into the pool as room appears).
  let lastRow = null;
  document.addEventListener("focusin", (event) => {
    const input = event.target.closest("#place-form input[name=row1], #place-form input[name=row2]");
    if (input) lastRow = input.name;
  });
  document.addEventListener("click", (event) => {
    const chip = event.target.closest("#to-place .tap-letter");
    if (!chip) return;
    const form = document.getElementById("place-form");
    const row = form.elements[lastRow || "row1"];
    const pool = form.elements.pool, faceDown = form.elements.face_down;
    const letter = chip.dataset.letter;
    const from = pool.value.includes(letter) ? pool : faceDown;
    if (!from.value.includes(letter)) return;
    from.value = from.value.replace(letter, "");
    const at = row.selectionStart ?? row.value.length;
    row.value = row.value.slice(0, at) + letter + row.value.slice(at);
    row.focus();
    row.setSelectionRange(at + 1, at + 1);
    const size = Number(form.dataset.poolSize);
    while (pool.value.length < size && faceDown.value.length) {
      pool.value += faceDown.value[0];
      faceDown.value = faceDown.value.slice(1);
    }
    chip.remove();
  });

  // First Draft: a photo of one player's board → its letters; unsure tiles are tapped to confirm.
  let reading = null;
  // Colonization: a photo of the tiles drawn for English fills in the draw (checked, then sent).
  document.addEventListener("change", async (event) => {
    if (event.target.id !== "drawn-photo" || !event.target.files.length) return;
    const body = new FormData();
    body.append("image", event.target.files[0]);
    say("Reading the tiles…");
    const result = await post("/api/games/" + gameId + "/drawn-tiles", body, true);
    event.target.value = "";
    if (!result) return;
    const field = document.querySelector("#english-form input[name=draws]");
    if (field) field.value = result.letters;
    const unsure = result.tiles.filter((t) => t.unsure).map((t) => t.letter);
    say("Read " + result.letters.split("").join(", ") + (unsure.length
        ? " (unsure of " + unsure.join(", ") + ": check before entering)." : ": check, then enter the draw."),
        unsure.length > 0);
  });

  document.addEventListener("change", async (event) => {
    const input = event.target.closest("input.board-photo");
    if (!input || !input.files.length) return;
    const body = new FormData();
    body.append("image", input.files[0]);
    say("Reading the photo…");
    const result = await post("/api/games/" + gameId + "/playerboard?player="
                              + encodeURIComponent(input.dataset.player), body, true);
    input.value = "";
    if (!result) return;
    say("");
    reading = result;
    showReading();
  });

  function tileSpan(tile, where) {
    const span = document.createElement("span");
    span.className = "ftile" + (tile.unsure ? " unsure" : "");
    span.textContent = tile.letter;
    span.title = "confidence " + Math.round(tile.confidence * 100) + "%";
    span.dataset.where = where;
    return span;
  }
  function showReading() {
    document.getElementById("photo-result").hidden = false;
    document.getElementById("photo-player").textContent = reading.player;
    const rows = document.getElementById("photo-rows");
    rows.innerHTML = "";
    const groups = [["row 1", reading.rows[0], "r0"], ["row 2", reading.rows[1], "r1"], ["pool", reading.pool, "p"]];
    for (const [label, tiles, tag] of groups) {
      const line = document.createElement("div");
      line.className = "row-line";
      line.dataset.group = tag;
      const name = document.createElement("span");
      name.className = "row-label";
      name.textContent = label;
      line.appendChild(name);
      const holder = document.createElement("span");
      holder.className = "tiles";
      tiles.forEach((tile, index) => holder.appendChild(tileSpan(tile, tag + ":" + index)));
      line.appendChild(holder);
      rows.appendChild(line);
    }
    showChecks(reading.checks);
  }
  function showChecks(checks) {
    const box = document.getElementById("photo-checks");
    box.innerHTML = "";
    for (const check of checks) {
      const line = document.createElement("div");
      line.className = "check " + (check.coins ? "good" : "bad");
      line.textContent = check.sentence;
      box.appendChild(line);
    }
    const unsure = reading.rows.flat().concat(reading.pool).filter((t) => t.unsure).length;
    if (unsure) {
      const line = document.createElement("div");
      line.className = "check bad";
      line.textContent = unsure + " tile(s) unsure: tap to confirm.";
      box.appendChild(line);
    }
  }
  document.addEventListener("click", async (event) => {
    const span = event.target.closest("#photo-rows .ftile");
    if (!span || !reading) return;
    const [tag, index] = span.dataset.where.split(":");
    const tiles = tag === "p" ? reading.pool : reading.rows[Number(tag.slice(1))];
    const tile = tiles[Number(index)];
    const dialog = document.getElementById("letter-dialog");
    dialog.querySelector("[data-said]").textContent = "Read as " + tile.letter + ".";
    const answer = await window.tileref.ask("letter-dialog", { letter: tile.letter });
    if (answer === null) return;
    const letter = letters(answer.get("letter")).toUpperCase().slice(0, 1);
    if (!letter) return;
    tile.letter = letter;
    tile.unsure = false;
    tile.confidence = 1;
    const words = reading.rows.map((row) => row.map((t) => t.letter).join(""));
    const result = await post("/api/games/" + gameId + "/sale-check",
                              { rows: words, recorded: reading.recorded.rows });
    if (result) reading.checks = result.checks;
    showReading();
  });
})();
