/* The table's phone page (issue 13). A deal is kept in this phone's local storage before it is sent,
   with the idempotency key the page gave it, and sent again until the server has answered — when the
   network comes back, on a timer, when the page is opened again — so it is never lost; the server
   saves a key once, so it is never saved twice. Until then the page says "saved on this phone, not
   sent yet". A key the server already saved with other values is refused (409, `kept`): the copy stays
   on this phone, held (not sent again by itself), back in the form with the server's message and a
   fresh key, and it is sent only when the player sends the form again. The seat chosen ("I am") is
   remembered for the next deal. */
(function () {
  "use strict";
  var form = document.querySelector("[data-self-entry-form]");
  var outboxNote = document.getElementById("phone-outbox");
  var problem = document.getElementById("phone-problem");
  var storageKey = form ? form.getAttribute("data-outbox") : null;
  var seatKey = "kalooki:self-entry:seat:" + window.location.pathname;
  var sending = false;
  var timer = null;

  function read(key) {
    try { return JSON.parse(window.localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function write(key, value) {
    try {
      if (value === null) { window.localStorage.removeItem(key); } else { window.localStorage.setItem(key, JSON.stringify(value)); }
    } catch (e) { /* private mode: sending still works, only the copy is missing */ }
  }

  function showOutbox(pending) {
    if (outboxNote) { outboxNote.hidden = !pending; }
  }
  function showProblem(text) {
    if (!problem) { return; }
    problem.hidden = !text;
    problem.textContent = text || "";
  }

  function csrf(body) {
    var params = new URLSearchParams(body);
    return params.get("csrfmiddlewaretoken") || "";
  }

  function send() {
    var pending = storageKey ? read(storageKey) : null;
    if (!pending || pending.held || sending) { return; }
    sending = true;
    showOutbox(true);
    window.fetch(pending.url, {
      method: "POST",
      body: pending.body,
      credentials: "same-origin",
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": csrf(pending.body)
      }
    }).then(function (response) {
      if (response.status >= 500 || response.status === 0) { throw new Error("server busy"); }
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === -1) {
        return { status: response.status, answer: { ok: false, message: "The deal was refused (" + response.status + "): reload the page and enter it again." } };
      }
      return response.json().then(function (answer) { return { status: response.status, answer: answer }; });
    }).then(function (result) {
      sending = false;
      showOutbox(false);
      if (result.status === 409 && result.answer.kept) {
        // The key was saved before with other values: keep this copy, held until sent again by hand.
        hold(pending, result.answer);
        return;
      }
      // Answered: saved (or refused, with the reason) — either way nothing is left to send.
      write(storageKey, null);
      if (result.answer.ok) {
        var said = (pending.offline ? "Sent after the network came back. " : "") + result.answer.message;
        try { window.sessionStorage.setItem("kalooki:self-entry:flash", said); } catch (e) { /* no flash */ }
        window.location.reload();
      } else {
        showProblem(result.answer.message);
        restore(pending.body);
      }
    }).catch(function () {
      sending = false;
      // Not sent: remembered, so the page can say it went once the network came back.
      if (!pending.offline) { pending.offline = true; write(storageKey, pending); }
      showOutbox(true);
      schedule();
    });
  }

  function schedule() {
    if (timer === null) {
      timer = window.setTimeout(function () { timer = null; send(); }, 4000);
    }
  }

  /* A copy the server would not take under its key: kept, shown with the server's message, and sent
     again (under the form's fresh key) only when the player sends the form. */
  function hold(pending, answer) {
    var held = { url: pending.url, body: pending.body, held: true, message: answer.message || "" };
    write(storageKey, held);
    showHeld(held);
    var key = form ? form.querySelector("[data-idempotency-key]") : null;
    if (key && answer.idempotency_key) { key.value = answer.idempotency_key; }
  }
  function showHeld(held) {
    showProblem(held.message || "This deal was not sent: check it and send it again.");
    restore(held.body);
  }

  /* A refused deal comes back into the form so it can be put right. */
  function restore(body) {
    if (!form) { return; }
    new URLSearchParams(body).forEach(function (value, name) {
      var field = form.elements.namedItem(name);
      if (!field || name === "csrfmiddlewaretoken" || name === "idempotency_key") { return; }
      if (field.type === "checkbox") { field.checked = value === "on"; } else { field.value = value; }
    });
  }

  function rememberSeat(select) {
    select.addEventListener("change", function () {
      try { window.localStorage.setItem(seatKey, select.value); } catch (e) { /* not remembered */ }
    });
  }

  document.querySelectorAll("[data-seat-choice]").forEach(rememberSeat);
  var entrySeat = document.getElementById("entry-seat");
  if (entrySeat) {
    try { entrySeat.value = window.localStorage.getItem(seatKey) || ""; } catch (e) { /* none */ }
  }

  try {
    var flash = window.sessionStorage.getItem("kalooki:self-entry:flash");
    if (flash) {
      window.sessionStorage.removeItem("kalooki:self-entry:flash");
      var note = document.createElement("p");
      note.className = "notice notice--success";
      note.setAttribute("role", "status");
      note.textContent = flash;
      // In the status region at the foot of the screen, where the player looks.
      var bar = document.getElementById("phone-status-bar");
      var main = document.getElementById("main");
      if (bar) { bar.insertBefore(note, bar.firstChild); } else if (main) { main.insertBefore(note, main.firstChild); }
    }
  } catch (e) { /* no flash */ }

  if (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      showProblem("");
      var pending = read(storageKey);
      if (pending && !pending.held) { send(); return; }
      // A held copy is replaced by the form as it is now, with the form's own key.
      var body = new URLSearchParams(new FormData(form)).toString();
      write(storageKey, { url: form.action, body: body });
      send();
    });
    var kept = read(storageKey);
    if (kept && kept.held) { showHeld(kept); } else if (kept) { send(); }
  }
  window.addEventListener("online", send);
})();
