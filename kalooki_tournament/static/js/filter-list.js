/* Live filter for the "where do I sit" list: hides the entries that do not match what is typed.
   Without JavaScript the same form filters on the server (?q=). */
(function () {
  "use strict";

  function normalise(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function setUp(form) {
    var input = form.querySelector("input[type=search]");
    var list = document.getElementById(form.getAttribute("data-filter-list"));
    var status = document.getElementById(form.getAttribute("data-filter-status"));
    if (!input || !list) {
      return;
    }
    var items = Array.prototype.slice.call(list.querySelectorAll("[data-filter-text]"));
    var timer = null;

    function apply() {
      var query = normalise(input.value);
      var shown = 0;
      items.forEach(function (item) {
        var match = !query || normalise(item.getAttribute("data-filter-text")).indexOf(query) !== -1;
        item.hidden = !match;
        if (match) {
          shown += 1;
        }
      });
      if (status) {
        status.textContent = query
          ? shown + (shown === 1 ? " player matches" : " players match") + " \u201c" + input.value.trim() + "\u201d."
          : items.length + " players.";
      }
      if (window.history && window.history.replaceState) {
        var url = new URL(window.location.href);
        if (query) {
          url.searchParams.set("q", input.value.trim());
        } else {
          url.searchParams.delete("q");
        }
        window.history.replaceState(null, "", url.toString());
      }
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(apply, 80);
    });
    // The server already filtered on ?q=; show every entry again so the live filter can work on all.
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      apply();
    });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-filter-list]"), setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
