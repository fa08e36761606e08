/* A refused form gets its message and the focus wherever it sits on the page (issue 21): a page shown
   again after a refusal (400, 409) opens at the top, and the form's message may be a screen further
   down. The refused form is the one marked `data-refused`, else the first holding a field Django marked
   invalid or an alert. Its field asked for (`data-focus-here`, a box to confirm) or the first invalid
   one gets the focus. A page that places its own focus (`data-focus-on-load`, the entry form's
   refused line) is left to do so. */
(function () {
  "use strict";

  var REFUSED = '[aria-invalid="true"], [role="alert"]';

  function refusedForm() {
    var marked = document.querySelector("form[data-refused]");
    if (marked) {
      return marked;
    }
    var forms = document.querySelectorAll("form:not([data-entry-form])");
    for (var index = 0; index < forms.length; index += 1) {
      if (forms[index].querySelector(REFUSED)) {
        return forms[index];
      }
    }
    return null;
  }

  function firstField(form) {
    return form.querySelector("[data-focus-here]") || form.querySelector('[aria-invalid="true"]') ||
      form.querySelector('input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])') ||
      form.querySelector("button");
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector("[data-focus-on-load]") ||
        document.querySelector('form[data-entry-form] [aria-invalid="true"]')) {
      return;
    }
    var form = refusedForm();
    if (!form) {
      return;
    }
    var details = form.closest("details");
    if (details) {
      details.open = true;
    }
    var alert = form.querySelector('[role="alert"]') || form;
    if (typeof alert.scrollIntoView === "function") {
      alert.scrollIntoView({ block: "center" });
    }
    var field = firstField(form);
    if (field) {
      field.focus({ preventScroll: true });
    }
    form.setAttribute("data-refused-focus", "");
  });
})();
