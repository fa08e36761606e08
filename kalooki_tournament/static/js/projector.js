/* The projector pages through long lists by itself (issue 11): each [data-pager] box shows a run of its
   items ([data-pager-item]) — data-pager-per-page of them (the standings and the seating: two columns
   of ten), else as many as fit its height — then the next run every data-pager-seconds, and says
   "page 2 of 4" in its [data-pager-status]. A refreshed page (live-refresh.js) starts over.

   What changed since the last refresh (issue 24): every [data-change-key] element carries a value; after
   a refresh the values are compared with the screen's last ones, the changed elements are marked
   (.is-changed) and [data-changes] names them ("Ann Reid: =3 · Table 4: finished, to verify"). */
(function () {
  "use strict";

  var timers = [];
  var seen = null;
  var SHOWN = 8;

  function byHeight(box, items) {
    // Show everything, measure, then cut into runs that fit the box's height.
    items.forEach(function (item) { item.hidden = false; });
    var height = box.clientHeight;
    var header = box.querySelector("thead");
    var room = height - (header ? header.offsetHeight : 0);
    var result = [];
    var current = [];
    var start = null;
    items.forEach(function (item) {
      var top = item.offsetTop;
      var bottom = top + item.offsetHeight;
      if (start === null) {
        start = top;
      }
      if (current.length && bottom - start > room) {
        result.push(current);
        current = [];
        start = top;
      }
      current.push(item);
    });
    if (current.length) {
      result.push(current);
    }
    return result;
  }

  function byCount(items, size) {
    var result = [];
    for (var index = 0; index < items.length; index += size) {
      result.push(items.slice(index, index + size));
    }
    return result;
  }

  function show(runs, index, items, status) {
    items.forEach(function (item) { item.hidden = true; });
    runs[index].forEach(function (item) { item.hidden = false; });
    if (status) {
      status.textContent = runs.length > 1 ? "· page " + (index + 1) + " of " + runs.length : "";
    }
  }

  function values() {
    var found = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-change-key]"), function (element) {
      found[element.getAttribute("data-change-key")] = element;
    });
    return found;
  }

  function compare() {
    var now = values();
    var box = document.querySelector("[data-changes]");
    if (seen === null || !box) {
      seen = {};
      Object.keys(now).forEach(function (key) { seen[key] = now[key].getAttribute("data-change-value"); });
      return;
    }
    var changed = [];
    // A list the screen did not show before (the seating giving way to the standings) is new, not changed.
    var kinds = {};
    Object.keys(seen).forEach(function (key) { kinds[key.split(":")[0]] = true; });
    Object.keys(now).forEach(function (key) {
      var value = now[key].getAttribute("data-change-value");
      if (kinds[key.split(":")[0]] && seen[key] !== value) {
        now[key].classList.add("is-changed");
        changed.push(now[key].getAttribute("data-change-text"));
      }
    });
    var gone = Object.keys(seen).filter(function (key) { return key.indexOf("t:") === 0 && !now[key]; });
    gone.forEach(function (key) {
      var parts = key.split(":");
      changed.push("Round " + parts[1] + ", table " + parts[2] + ": verified");
    });
    seen = {};
    Object.keys(now).forEach(function (key) { seen[key] = now[key].getAttribute("data-change-value"); });
    if (!changed.length) {
      box.hidden = true;
      return;
    }
    var more = changed.length > SHOWN ? " · and " + (changed.length - SHOWN) + " more" : "";
    box.textContent = "Since the last update: " + changed.slice(0, SHOWN).join(" · ") + more;
    box.hidden = false;
  }

  function start() {
    timers.forEach(window.clearInterval);
    timers = [];
    Array.prototype.forEach.call(document.querySelectorAll("[data-pager]"), function (box) {
      var items = Array.prototype.slice.call(box.querySelectorAll("[data-pager-item]"));
      var status = document.querySelector('[data-pager-status="' + box.getAttribute("data-pager") + '"]');
      if (!items.length) {
        return;
      }
      var size = Number(box.getAttribute("data-pager-per-page"));
      var runs = size ? byCount(items, size) : byHeight(box, items);
      // The first page holding a change is shown first.
      var index = runs.findIndex(function (run) {
        return run.some(function (item) { return item.classList.contains("is-changed"); });
      });
      index = Math.max(index, 0);
      show(runs, index, items, status);
      if (runs.length > 1) {
        var seconds = Number(box.getAttribute("data-pager-seconds")) || 12;
        timers.push(window.setInterval(function () {
          index = (index + 1) % runs.length;
          show(runs, index, items, status);
        }, seconds * 1000));
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { compare(); start(); });
  document.addEventListener("kalooki:refreshed", function () { compare(); start(); });
  window.addEventListener("resize", start);
  window.kalookiProjectorStart = start;
})();
