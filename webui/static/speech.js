// The referee speaks: with the toggle on, each new verdict (and an undo, and the tiles to lift
// off) is said aloud through the browser's speech synthesis, for players who do not look at the
// tablet. The words are the panel's own (data-say, worded on the server); data-say-key changes
// only with the news, so a panel redrawn for anything else is not said again.
"use strict";
(function () {
  const toggle = document.getElementById("speak");
  const holder = document.getElementById("panel");
  if (!toggle || !holder) return;
  if (!("speechSynthesis" in window) || typeof SpeechSynthesisUtterance === "undefined") {
    toggle.closest("label").hidden = true;  // this browser cannot speak
    return;
  }
  const KEY = "tileref-speak";
  const current = () => holder.querySelector(".panel");
  let said = current() ? current().dataset.sayKey : undefined;  // what was already on screen

  function speak(text) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang || "en";
    window.speechSynthesis.speak(utterance);
  }

  toggle.checked = localStorage.getItem(KEY) === "on";
  toggle.addEventListener("change", () => {
    localStorage.setItem(KEY, toggle.checked ? "on" : "off");
    if (toggle.checked) speak("I will say each verdict.");
    else window.speechSynthesis.cancel();
  });

  new MutationObserver(() => {
    const panel = current();
    if (!panel || panel.dataset.sayKey === undefined || panel.dataset.sayKey === said) return;
    said = panel.dataset.sayKey;
    if (toggle.checked && panel.dataset.say) speak(panel.dataset.say);
  }).observe(holder, { childList: true });
})();
