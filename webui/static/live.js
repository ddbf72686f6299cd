// The live camera: this device's camera through the browser, steady frames posted as JPEG.
"use strict";
(function () {
  const video = document.getElementById("video");
  const canvas = document.getElementById("canvas");
  if (!video || !window.tileref) return;
  const { gameId, token, WATCH_ONLY } = window.tileref;
  const waiting = document.getElementById("live-waiting");
  const detail = document.getElementById("live-detail");
  const sent = document.getElementById("sent");
  const read = document.getElementById("read");
  const toggle = document.getElementById("camera-toggle");
  const INTERVAL_MS = 500;
  let busy = false, paused = false, frames = 0, reads = 0, timer = null;

  // The status lines never give back the height they once took: a detail that comes and goes
  // with every frame would move everything below it, a corner handle under a finger included.
  let tallest = 0;
  function show(what, more) {
    waiting.textContent = what;
    detail.textContent = more || "";
    const status = waiting.parentElement;
    status.style.minHeight = "";
    tallest = Math.max(tallest, status.offsetHeight);
    status.style.minHeight = tallest + "px";
  }

  async function start() {
    if (!token()) { show("This screen has no say in the game", WATCH_ONLY); return; }
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      show("This browser gives no camera here.", "Use HTTPS (tileref serve --https) or localhost.");
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
      video.srcObject = stream;
      await video.play();
      show("Waiting for a steady view");
      timer = setInterval(tick, INTERVAL_MS);
    } catch (error) {
      show("No camera: " + error.message);
    }
  }

  async function tick() {
    if (busy || paused || !video.videoWidth) return;
    busy = true;
    try {
      canvas.width = video.videoWidth; canvas.height = video.videoHeight;
      canvas.getContext("2d").drawImage(video, 0, 0);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.88));
      const response = await fetch("/api/games/" + gameId + "/frames", {
        method: "POST", body: blob,
        headers: { "Content-Type": "image/jpeg", "Authorization": "Bearer " + token() },
      });
      frames += 1; sent.textContent = frames;
      const data = await response.json().catch(() => ({}));
      if (response.status === 401 || response.status === 403) {
        clearInterval(timer);  // every later frame would be refused too
        show("This screen has no say in the game", WATCH_ONLY);
        return;
      }
      if (!response.ok) { show("Camera frame refused", data.error); return; }
      if (data.reading) { reads += 1; read.textContent = reads; }
      show("Waiting for " + data.waiting_for, data.detail);
      // A verdict (hands-free) or a play being laid shows in the panel, where it stays until
      // the next play begins: fetch it now rather than wait for the event stream.
      if ((data.verdict || data.provisional) && window.tileref.refreshPanel) window.tileref.refreshPanel();
    } catch (error) {
      show("Lost the server", String(error));
    } finally {
      busy = false;
    }
  }

  if (toggle) toggle.addEventListener("click", () => {
    paused = !paused;
    toggle.textContent = paused ? "Resume camera" : "Pause camera";
    if (paused) show("Camera paused");
  });
  start();
})();
