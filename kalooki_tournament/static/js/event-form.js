/* The organiser's event form: only the chosen ruleset family's parameters are shown (without this script
   every family's are, and only the chosen one's are read). */
(function () {
  "use strict";

  function update(select) {
    var chosen = select.value;
    var families = document.querySelectorAll(".rules-family[data-presets]");
    Array.prototype.forEach.call(families, function (fieldset) {
      var presets = fieldset.getAttribute("data-presets").split(" ");
      fieldset.hidden = presets.indexOf(chosen) < 0;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector('.event-form select[name="ruleset_preset"]');
    if (!select) {
      return;
    }
    update(select);
    select.addEventListener("change", function () { update(select); });
  });
})();
