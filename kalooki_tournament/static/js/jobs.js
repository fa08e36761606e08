/* Background jobs (scoring.background): each job on the page (data-job-status, its status URL) asks
   how far it is every two seconds and moves its progress bar; when it finishes, the download link or
   the message shows (or, with data-job-reload, the page is drawn again by the server: an import's
   report). Plain fetch of the app's own URL: nothing inline, so the content security policy holds. */
(function () {
  "use strict";

  var EVERY_MS = 2000;

  function show(element, text) {
    if (!element) {
      return;
    }
    element.textContent = text || "";
    element.hidden = !text;
  }

  function draw(box, job) {
    var bar = box.querySelector("[data-job-bar]");
    if (bar) {
      bar.value = job.percent;
      bar.textContent = job.percent + "%";
    }
    var state = job.status_text + (job.step && !job.finished ? ": " + job.step : "") + " · " + job.percent + "%";
    show(box.querySelector("[data-job-text]"), state);
    var message = box.querySelector("[data-job-message]");
    show(message, job.message);
    if (job.failed) {
      message.setAttribute("role", "alert");
      box.classList.add("notice--findings");
    }
    var download = box.querySelector("[data-job-download]");
    if (download && job.download_url) {
      download.querySelector("a").setAttribute("href", job.download_url);
      download.hidden = false;
    }
  }

  function watch(box) {
    var url = box.getAttribute("data-job-status");
    function poll() {
      window.fetch(url, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (job) {
          if (!job) {
            window.setTimeout(poll, EVERY_MS * 2);
            return;
          }
          draw(box, job);
          if (!job.finished) {
            window.setTimeout(poll, EVERY_MS);
          } else if (box.hasAttribute("data-job-reload")) {
            window.location.reload();
          }
        })
        .catch(function () { window.setTimeout(poll, EVERY_MS * 2); /* the venue's Wi-Fi dropped one */ });
    }
    window.setTimeout(poll, EVERY_MS);
  }

  if (typeof window.fetch !== "function") {
    return;
  }
  document.querySelectorAll("[data-job-status]").forEach(function (box) {
    if (!box.hasAttribute("data-job-finished")) {
      watch(box);
    }
  });
})();
