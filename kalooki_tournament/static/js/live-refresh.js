/* Public pages refresh themselves while a round is open (issue 11), cheaply: every N seconds the page
   asks for itself again carrying the ETag it was served with (meta kalooki-etag); the server answers
   304 without a page when no result changed, and only a changed page replaces what is on screen (the
   reader's scroll position kept). The page says when to stop: a page without kalooki-refresh. */
(function () {
  "use strict";

  function meta(doc, name) {
    var element = doc.querySelector('meta[name="' + name + '"]');
    return element ? element.getAttribute("content") : null;
  }

  var seconds = Number(meta(document, "kalooki-refresh"));
  if (!seconds || typeof window.fetch !== "function") {
    return;
  }
  var etag = meta(document, "kalooki-etag");
  var timer = null;

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main");
    var current = document.querySelector("main");
    var tag = meta(doc, "kalooki-etag");
    if (!fresh || !current || (tag && tag === etag)) {
      return;
    }
    etag = tag;
    var y = window.scrollY;
    current.replaceWith(fresh);
    window.scrollTo(0, y);
    document.dispatchEvent(new CustomEvent("kalooki:refreshed"));
    if (!meta(doc, "kalooki-refresh")) {
      window.clearInterval(timer);
    }
  }

  function check() {
    if (document.hidden) {
      return;
    }
    var headers = etag ? { "If-None-Match": etag } : {};
    window.fetch(window.location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status === 200) {
          return answer.text().then(swap);
        }
        return null;
      })
      .catch(function () { /* the venue's Wi-Fi dropped a request: the next one tries again */ });
  }

  timer = window.setInterval(check, seconds * 1000);
  window.kalookiRefresh = check;
})();
