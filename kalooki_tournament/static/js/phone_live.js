/* The table's phone page keeps itself up to date (issue 23): every few seconds it asks for the page
   again with a conditional request on the table's stamp (the page's ETag: the set's version, the
   table's entries, self-entry's mode). The server answers 304 while nothing changed. When something
   did — a deal confirmed on another phone, a deal to confirm, the director's decision — a page nobody
   has typed into is simply opened again; on a page being typed into, only the status, the deals
   waiting and the sheet are replaced, and what is being typed stays. Nothing is sent but GETs. */
(function () {
  "use strict";
  var bar = document.getElementById("phone-status-bar");
  if (!bar || !window.fetch || !window.DOMParser) { return; }
  var stamp = bar.getAttribute("data-stamp");
  var address = bar.getAttribute("data-live-url");
  if (!stamp || !address) { return; }
  var EVERY = 2500;
  var typed = false;
  var asking = false;

  function markTyped() { typed = true; }
  document.addEventListener("input", markTyped);
  document.addEventListener("change", markTyped);

  function unsent() {
    var outbox = document.getElementById("phone-outbox");
    return Boolean(outbox && !outbox.hidden);
  }

  function replace(fresh) {
    ["phone-status", "phone-live-waiting", "phone-live-sheet"].forEach(function (id) {
      var here = document.getElementById(id);
      var there = fresh.getElementById(id);
      if (here && there) { here.innerHTML = there.innerHTML; }
    });
  }

  function ask() {
    if (asking || document.hidden) { return; }
    asking = true;
    window.fetch(address, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "If-None-Match": '"' + stamp + '"', "Accept": "text/html" }
    }).then(function (response) {
      if (response.status !== 200) { return null; }
      var tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
      return response.text().then(function (html) { return { tag: tag, html: html }; });
    }).then(function (answer) {
      asking = false;
      if (!answer) { return; }
      if (!typed && !unsent()) {
        window.location.assign(address);
        return;
      }
      stamp = answer.tag || stamp;
      replace(new window.DOMParser().parseFromString(answer.html, "text/html"));
    }).catch(function () { asking = false; });
  }

  window.setInterval(ask, EVERY);
})();
