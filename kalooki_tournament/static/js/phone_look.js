/* Large type and high contrast on the phone pages (issue 23): a toggle the phone remembers (local
   storage), for a bright hall and older eyes. The class goes on <html> so every phone page follows it. */
(function () {
  "use strict";
  var KEY = "kalooki:phone:large";
  var root = document.documentElement;

  function remembered() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function apply(on) {
    root.classList.toggle("phone-large", on);
    document.querySelectorAll("[data-large-toggle]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  apply(remembered());
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-large-toggle]") : null;
    if (!button) { return; }
    var on = !root.classList.contains("phone-large");
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* not remembered */ }
    apply(on);
  });
})();
