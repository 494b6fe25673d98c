// The plan player of section, act and chapter pages: steps the section's drawing (an <img>
// of /plan/SECTION?step=N) act by act; on a chapter page, plays its sections in order.
// Served by kg serve itself (the page's Content-Security-Policy allows only 'self').
"use strict";
(function () {
  const box = document.querySelector(".plan-player");
  if (!box) return;
  const img = box.querySelector(".plan-image");
  const range = box.querySelector(".plan-step");
  const caption = box.querySelector(".plan-caption");
  const at = box.querySelector(".plan-at");
  const sections = Array.from(box.querySelectorAll(".plan-sections li")).map((li) => ({
    src: li.dataset.src,
    steps: parseInt(li.dataset.steps, 10),
    label: li.textContent,
  }));
  let current = 0;
  let timer = null;

  function show(step) {
    const s = sections[current];
    step = Math.max(0, Math.min(s.steps, step));
    range.max = String(s.steps);
    range.value = String(step);
    img.src = s.src + "?step=" + step;
    img.dataset.step = String(step);
    caption.textContent = s.label;
    at.textContent = step + " / " + s.steps;
    box.dataset.shown = String(step);
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
  }

  function tick() {
    const s = sections[current];
    const step = parseInt(range.value, 10);
    if (step < s.steps) return show(step + 1);
    if (current + 1 < sections.length) {
      current += 1;
      return show(0);
    }
    stop();
  }

  box.querySelector(".plan-prev").addEventListener("click", () => { stop(); show(parseInt(range.value, 10) - 1); });
  box.querySelector(".plan-next").addEventListener("click", () => { stop(); show(parseInt(range.value, 10) + 1); });
  range.addEventListener("input", () => { stop(); show(parseInt(range.value, 10)); });
  box.querySelector(".plan-play").addEventListener("click", () => {
    if (timer !== null) return stop();
    const atEnd = parseInt(range.value, 10) >= sections[current].steps;
    if (atEnd && current + 1 >= sections.length) {  // played through: again from the start
      current = 0;
      show(0);
    }
    timer = setInterval(tick, 900);
  });
  show(parseInt(box.dataset.step || "0", 10));
})();
