/* The director's console (templates/direct/console.html) keeps itself up to date: every N seconds
   (meta kalooki-console-refresh) it asks for its own page again and puts the fresh [data-console] box
   and title in place, so the count of results waiting shows in the tab's title too. With "Chime while
   results wait" ticked (remembered in this browser) it plays a short tone, made here with the Web
   Audio API (no sound file to fetch), when more results wait than before, and again every minute
   while any wait. */
(function () {
  "use strict";

  var KEY = "kalooki:console-chime";
  var meta = document.querySelector('meta[name="kalooki-console-refresh"]');
  var seconds = meta ? Number(meta.getAttribute("content")) : 0;
  var box = document.querySelector("[data-console-chime]");
  var audio = null;
  var lastChime = 0;

  function waiting(root) {
    var element = root.querySelector("[data-console]");
    return element ? Number(element.getAttribute("data-waiting")) || 0 : 0;
  }

  var previous = waiting(document);

  function chime() {
    if (!audio) {
      return;
    }
    var now = audio.currentTime;
    [880, 660].forEach(function (frequency, index) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + index * 0.25);
      gain.gain.exponentialRampToValueAtTime(0.3, now + index * 0.25 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + index * 0.25 + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + index * 0.25);
      tone.stop(now + index * 0.25 + 0.25);
    });
    lastChime = Date.now();
    document.documentElement.setAttribute("data-chimed", String(lastChime));
  }

  function chimeOn() {
    // A browser lets a page make sound once someone has clicked on it: the tick is that click.
    if (!audio && window.AudioContext) {
      audio = new window.AudioContext();
    }
  }

  if (box) {
    box.checked = window.localStorage.getItem(KEY) === "1";
    box.addEventListener("change", function () {
      window.localStorage.setItem(KEY, box.checked ? "1" : "0");
      if (box.checked) {
        chimeOn();
        if (previous > 0) {
          chime();
        }
      }
    });
    if (box.checked) {
      document.addEventListener("click", chimeOn, { once: true });
      document.addEventListener("keydown", chimeOn, { once: true });
    }
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("[data-console]");
    var current = document.querySelector("[data-console]");
    if (!fresh || !current) {
      return;
    }
    current.replaceWith(fresh);
    document.title = doc.title;
    var count = waiting(document);
    if (box && box.checked && count > 0 && (count > previous || Date.now() - lastChime > 60000)) {
      chime();
    }
    previous = count;
  }

  function refresh() {
    window.fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) { return answer.status === 200 ? answer.text().then(swap) : null; })
      .catch(function () { /* the venue's network dropped one: the next try comes soon */ });
  }

  if (seconds && typeof window.fetch === "function") {
    window.setInterval(refresh, seconds * 1000);
    window.kalookiConsoleRefresh = refresh;
  }
})();
