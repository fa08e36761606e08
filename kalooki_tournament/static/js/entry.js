/* Director entry: Enter saves the deal from any field (a select or a checkbox too), so a sheet can be
   typed with the keyboard alone. The live check itself is htmx (hx-post on #deal-check). */
(function () {
  "use strict";

  function submitsOnEnter(target) {
    var tag = target.tagName;
    if (tag === "TEXTAREA" || tag === "BUTTON" || tag === "A") {
      return false;
    }
    return tag === "INPUT" || tag === "SELECT";
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) {
      return;
    }
    var form = event.target.closest && event.target.closest("form[data-entry-form]");
    if (!form || !submitsOnEnter(event.target)) {
      return;
    }
    event.preventDefault();
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit();
    } else {
      form.submit();
    }
  });
})();
