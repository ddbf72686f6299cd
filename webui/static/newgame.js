// The new-game form: seats suggested clockwise, a word list to upload, and a game started from
// the tiles already on the table (read with the camera or a photo, drawn, fixed by tapping).
"use strict";
(function () {
  const form = document.getElementById("new-game");
  if (!form) return;
  const rulesetSelect = document.getElementById("ruleset");

  document.getElementById("wordlist").addEventListener("change", (e) => {
    document.getElementById("wordlist-file-row").hidden = e.target.value !== "upload";
  });

  // Suggest seats clockwise (S, W, N, E; two players S, N) until a seat is chosen by hand.
  const SUGGESTED = { 1: "S", 2: "SN", 3: "SWN", 4: "SWNE" };
  const SIDES = { S: "South", W: "West", N: "North", E: "East" };
  const names = [...document.querySelectorAll(".player-row input")];
  const seats = [...document.querySelectorAll("select.seat")];
  // What the chosen ruleset asks for (webui/views/table.py form_features): seats, colours, a
  // word list, the square board's camera and position, its own options.
  const features = () => (rulesetSelect.selectedOptions[0].dataset.features || "").split(" ");
  const seated = () => features().includes("seated");  // players sit at sides
  // A field the ruleset does not ask for is hidden and disabled, so it is not posted either.
  function showFields() {
    document.querySelectorAll("#new-game [data-needs]").forEach((block) => {
      const wanted = features().includes(block.dataset.needs);
      block.hidden = !wanted;
      if (block.matches("select, input")) block.disabled = !wanted;
      else block.querySelectorAll("select, input").forEach((field) => { field.disabled = !wanted; });
    });
    const frozen = document.getElementById("frozen-row");
    if (frozen) frozen.hidden = filled().length < 3;  // the referee offers it to 3 or 4 players
  }
  const filled = () => names.map((n, i) => (n.value.trim() ? i : -1)).filter((i) => i >= 0);
  seats.forEach((s) => s.addEventListener("change", () => { s.dataset.manual = "1"; fillToMove(); recheck(); }));
  function suggest() {
    const rows = filled();
    const letters = SUGGESTED[rows.length] || "";
    seats.forEach((s) => { if (!s.dataset.manual) s.value = ""; });
    rows.forEach((row, k) => { if (!seats[row].dataset.manual) seats[row].value = letters[k] || ""; });
  }
  names.forEach((n) => n.addEventListener("input", () => { suggest(); fillToMove(); showFields(); }));
  suggest();
  showFields();
  rulesetSelect.addEventListener("change", () => {
    showFields();
    fillToMove();
    recheck();
  });

  // -- a game joined in progress: the tiles on the table are its starting position ----------
  const reader = document.getElementById("position-reader");
  const boardField = document.getElementById("position-board");
  const drawn = document.getElementById("position-drawn");
  const message = document.getElementById("position-message");
  const problems = document.getElementById("position-problems");
  const toMove = document.getElementById("to-move");
  const video = document.getElementById("position-video");
  const canvas = document.getElementById("position-canvas");

  function say(text, bad) { message.textContent = text || ""; message.className = "message" + (bad ? " bad" : ""); }
  const seatsNow = () => (seated() ? filled().map((row) => seats[row].value).join("") : "");
  const rulesetNow = () => rulesetSelect.value;
  const tilesNow = () => form.elements.tiles.value;

  function fillToMove() {
    const chosen = toMove.value;
    toMove.innerHTML = "";
    filled().forEach((row, k) => {
      const option = document.createElement("option");
      option.value = String(k);
      const seat = seated() && seats[row].value ? " (" + SIDES[seats[row].value] + ")" : "";
      option.textContent = names[row].value.trim() + seat;
      toMove.appendChild(option);
    });
    if (chosen && Number(chosen) < toMove.options.length) toMove.value = chosen;
  }
  fillToMove();

  document.querySelectorAll("input[name=start_from]").forEach((radio) => radio.addEventListener("change", () => {
    reader.hidden = form.elements.start_from.value !== "table";
  }));

  function show(data) {
    boardField.value = data.board;
    drawn.hidden = false;
    drawn.innerHTML = data.board_svg;
    problems.innerHTML = "";
    for (const line of [...data.blockers, ...data.problems.filter((p) => !data.blockers.includes(p)), ...data.warnings]) {
      const item = document.createElement("li");
      item.textContent = line;
      problems.appendChild(item);
    }
    say(data.tiles + (data.tiles === 1 ? " tile" : " tiles") + " on the board. Tap a square to fix it.");
  }

  async function ask(body, isForm) {
    const response = await fetch("/api/position", isForm ? { method: "POST", body }
      : { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
    const data = await response.json().catch(() => ({ error: "the server did not answer" }));
    if (!response.ok) { say(data.error || "refused", true); return; }
    show(data);
  }

  async function readPicture(blob) {
    const body = new FormData();
    body.append("image", blob, "table.jpg");
    body.append("ruleset", rulesetNow());
    body.append("tiles", tilesNow());
    body.append("camera_side", form.elements.camera_side.value);
    body.append("seats", seatsNow());
    say("Reading the board…");
    await ask(body, true);
  }

  function recheck() {
    if (boardField.value) ask({ board: boardField.value, ruleset: rulesetNow(), tiles: tilesNow(), seats: seatsNow() });
  }
  form.elements.tiles.addEventListener("change", recheck);

  document.getElementById("position-camera").addEventListener("click", async () => {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      say("This browser gives no camera here: choose a photo instead.", true);
      return;
    }
    try {
      if (!video.srcObject) {
        video.srcObject = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
        video.hidden = false;
        await video.play();
        await new Promise((resolve) => setTimeout(resolve, 600));  // let the picture settle
      }
      canvas.width = video.videoWidth; canvas.height = video.videoHeight;
      canvas.getContext("2d").drawImage(video, 0, 0);
      await readPicture(await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92)));
    } catch (error) {
      say("No camera: " + error.message, true);
    }
  });
  document.getElementById("position-photo").addEventListener("change", async (event) => {
    if (event.target.files.length) await readPicture(event.target.files[0]);
    event.target.value = "";
  });

  // A tapped square: say what lies there; the board text changes and is checked again.
  drawn.addEventListener("click", async (event) => {
    const cell = event.target.closest("svg .cell");
    if (!cell || !window.tilerefFix) return;
    const fixed = await window.tilerefFix.ask(cell.dataset.cell, cell.dataset.tile || "", seated());
    if (fixed === undefined) return;
    boardField.value = window.tilerefFix.withToken(boardField.value, cell.dataset.cell, fixed);
    recheck();
  });

  form.addEventListener("submit", (event) => {
    const formMessage = document.getElementById("form-message");
    formMessage.textContent = "";
    if (features().includes("coloured")) {
      const colours = filled().map((row) => form.elements["colour" + row].value);
      if (new Set(colours).size !== colours.length) {
        event.preventDefault();
        formMessage.textContent = "Every player needs a different colour.";
        return;
      }
    }
    if (features().includes("squares") && form.elements.start_from.value === "table" && !boardField.value) {
      event.preventDefault();
      say("Read the tiles on the table first (or start from an empty board).", true);
      reader.scrollIntoView();
    }
  });
})();
