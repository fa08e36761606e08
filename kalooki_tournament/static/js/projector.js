/* The projector pages through long lists by itself (issue 11): each [data-pager] box shows the items
   ([data-pager-item]) that fit its height, then the next ones every data-pager-seconds, and says
   "page 2 of 4" in its [data-pager-status]. A refreshed page (live-refresh.js) starts over. */
(function () {
  "use strict";

  var timers = [];

  function pages(box, items) {
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

  function show(runs, index, items, status) {
    items.forEach(function (item) { item.hidden = true; });
    runs[index].forEach(function (item) { item.hidden = false; });
    if (status) {
      status.textContent = runs.length > 1 ? "· page " + (index + 1) + " of " + runs.length : "";
    }
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
      var runs = pages(box, items);
      var index = 0;
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

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("kalooki:refreshed", start);
  window.addEventListener("resize", start);
  window.kalookiProjectorStart = start;
})();
