// Drag the board's four corners on a photo, then read it again with those corners.
"use strict";
(function () {
  document.querySelectorAll(".corner-editor").forEach((editor) => {
    const img = editor.querySelector("img");
    if (!img) return;
    if (!editor.dataset.size) {  // a live frame: its size is known once it has loaded
      if (!img.complete || !img.naturalWidth) { img.addEventListener("load", () => setUp(editor), { once: true }); return; }
      editor.dataset.size = JSON.stringify([img.naturalWidth, img.naturalHeight]);
    }
    setUp(editor);
  });

  function setUp(editor) {
    const img = editor.querySelector("img");
    if (!editor.dataset.size) editor.dataset.size = JSON.stringify([img.naturalWidth, img.naturalHeight]);
    const size = JSON.parse(editor.dataset.size);
    let corners = JSON.parse(editor.dataset.corners || "null");
    if (!corners || corners.length !== 4) {
      const [w, h] = size;
      corners = [[w * .2, h * .2], [w * .8, h * .2], [w * .8, h * .8], [w * .2, h * .8]];
    }
    const first = corners.map((point) => point.slice());  // where the handles began
    const handles = corners.map((point, index) => {
      const handle = document.createElement("div");
      handle.className = "handle";
      handle.title = ["top-left", "top-right", "bottom-right", "bottom-left"][index];
      editor.appendChild(handle);
      return handle;
    });
    function place() {
      const scale = img.clientWidth / size[0];
      handles.forEach((handle, i) => {
        handle.style.left = corners[i][0] * scale + "px";
        handle.style.top = corners[i][1] * scale + "px";
      });
    }
    handles.forEach((handle, i) => {
      handle.addEventListener("pointerdown", (down) => {
        handle.setPointerCapture(down.pointerId);
        // The corner moves as far as the finger does, from where it was: not to the finger's
        // point, which would make it jump by where on the handle the finger landed, and by as
        // much as the page moved under it (the live page grows and shrinks as frames come).
        const start = corners[i].slice();
        const move = (event) => {
          const scale = size[0] / img.clientWidth;
          corners[i] = [Math.max(0, Math.min(size[0], start[0] + (event.clientX - down.clientX) * scale)),
                        Math.max(0, Math.min(size[1], start[1] + (event.clientY - down.clientY) * scale))];
          place();
        };
        handle.addEventListener("pointermove", move);
        handle.addEventListener("pointerup", () => handle.removeEventListener("pointermove", move), { once: true });
      });
    });
    if (img.complete) place(); else img.addEventListener("load", place);
    window.addEventListener("resize", place);
    const rounded = () => corners.map(([x, y]) => [Math.round(x), Math.round(y)]);
    const reset = document.getElementById("reset-corners");
    if (reset) reset.addEventListener("click", () => {
      corners = first.map((point) => point.slice());
      place();
    });
    const button = document.getElementById("reread");
    if (button) button.addEventListener("click", () => {
      const url = new URL(editor.dataset.photo, location.href);  // keeps ?tiles=
      url.searchParams.set("corners", JSON.stringify(rounded()));
      location.href = url.href;
    });
    const save = document.getElementById("save-corners");
    if (save && window.tileref) save.addEventListener("click", async () => {
      const result = await window.tileref.api("/corners", { corners: rounded() });
      if (result) document.getElementById("corners-note").textContent = "Saved: the camera now reads inside these corners.";
    });
    const auto = document.getElementById("auto-corners");
    if (auto && window.tileref) auto.addEventListener("click", async () => {
      const result = await window.tileref.api("/corners", { corners: null });
      if (result) document.getElementById("corners-note").textContent = "The camera finds the board by itself again.";
    });
  }
})();
