/* "Follow me" (issue 24): a phone remembers one player of the event (localStorage, nothing on the
   server) from the player's page. Then every page of the event shows, at the top, where that player
   sits in the newest public round (the fragment at data-follow-url, the id in place of its 0), and the
   standings open at their row: ?follow=<id> makes the server show the page holding it, and the row is
   marked and scrolled to. Stop following from the banner or the player's page. */
(function () {
  "use strict";

  var banner = document.querySelector("[data-follow-banner]");
  if (!banner || !window.localStorage) {
    return;
  }
  var KEY = "kalooki:follow:" + banner.getAttribute("data-follow-event");

  function followed() {
    try {
      return JSON.parse(window.localStorage.getItem(KEY) || "null");
    } catch (error) {
      return null;
    }
  }

  function showBanner() {
    var who = followed();
    if (!who) {
      banner.hidden = true;
      banner.textContent = "";
      return;
    }
    var url = banner.getAttribute("data-follow-url").replace(/\/0\/seat\/$/, "/" + who.id + "/seat/");
    window.fetch(url, { credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (html === null) {
          return;
        }
        banner.innerHTML = html;
        banner.hidden = false;
        var stop = banner.querySelector("[data-follow-stop]");
        if (stop) {
          stop.addEventListener("click", function () { follow(null); });
        }
      })
      .catch(function () { /* no network now: the banner stays as it was */ });
  }

  function markRow(scroll) {
    var who = followed();
    Array.prototype.forEach.call(document.querySelectorAll("tr.is-followed"), function (row) {
      row.classList.remove("is-followed");
    });
    if (!who) {
      return;
    }
    var row = document.querySelector('table.standings tr[data-entry="' + who.id + '"]');
    if (row) {
      row.classList.add("is-followed");
      if (scroll) {
        row.scrollIntoView({ block: "center" });
      }
      return;
    }
    // Standings whose page does not hold the row: ask for the page that does, once.
    var query = new URLSearchParams(window.location.search);
    if (document.querySelector("table.standings") && !query.has("follow") && !query.has("page") && !query.has("sort")) {
      query.set("follow", who.id);
      window.location.replace(window.location.pathname + "?" + query.toString());
    }
  }

  function buttons() {
    var who = followed();
    Array.prototype.forEach.call(document.querySelectorAll("[data-follow-button]"), function (button) {
      var mine = who && String(who.id) === button.getAttribute("data-follow-id");
      button.textContent = mine ? "Following on this phone — stop" : "Follow me on this phone";
      button.setAttribute("aria-pressed", mine ? "true" : "false");
    });
  }

  function follow(who) {
    if (who) {
      window.localStorage.setItem(KEY, JSON.stringify(who));
    } else {
      window.localStorage.removeItem(KEY);
    }
    buttons();
    showBanner();
    markRow(false);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-follow-button]") : null;
    if (!button) {
      return;
    }
    var who = followed();
    var id = button.getAttribute("data-follow-id");
    follow(who && String(who.id) === id ? null : { id: Number(id), name: button.getAttribute("data-follow-name") });
  });

  function start() {
    buttons();
    showBanner();
    markRow(true);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  document.addEventListener("kalooki:refreshed", function () { buttons(); showBanner(); markRow(false); });
})();
