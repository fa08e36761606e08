/* The event form's directors: type a few letters of a name, choose a matching account, and it is added
   to the chosen directors (a ticked box). The accounts come from the app's own search
   (scoring:director_search), so the page never lists every account. */
(function () {
  "use strict";

  var MIN = 2;

  function chosenList(form) {
    var list = form.querySelector("#id_directors");
    if (!list) {
      list = document.createElement("div");
      list.id = "id_directors";
      form.querySelector(".director-search").before(list);
    }
    return list;
  }

  function add(form, account) {
    var existing = form.querySelector('input[name="directors"][value="' + account.id + '"]');
    if (existing) {
      existing.checked = true;
      return;
    }
    var list = chosenList(form);
    var row = document.createElement("div");
    var label = document.createElement("label");
    var box = document.createElement("input");
    box.type = "checkbox";
    box.name = "directors";
    box.value = String(account.id);
    box.checked = true;
    box.id = "id_directors_added_" + account.id;
    label.htmlFor = box.id;
    label.append(box, " ", account.name);
    row.append(label);
    list.append(row);
  }

  function show(form, results, accounts) {
    results.replaceChildren();
    accounts.forEach(function (account) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "button";
      button.textContent = "Add " + account.name;
      button.addEventListener("click", function () {
        add(form, account);
        results.replaceChildren();
      });
      item.append(button);
      results.append(item);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector(".director-search");
    if (!box) {
      return;
    }
    var form = box.closest("form");
    var input = box.querySelector("input[type=search]");
    var results = box.querySelector(".director-search__results");
    var timer = null;
    var asked = 0;
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault(); // a search, not the form's submit
      }
    });
    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      var text = input.value.trim();
      if (text.length < MIN) {
        results.replaceChildren();
        return;
      }
      timer = window.setTimeout(function () {
        var mine = ++asked;
        fetch(box.dataset.url + "?q=" + encodeURIComponent(text), {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        })
          .then(function (response) {
            return response.ok ? response.json() : { results: [] };
          })
          .then(function (data) {
            if (mine === asked) {
              show(form, results, data.results || []);
            }
          })
          .catch(function () {
            results.replaceChildren();
          });
      }, 200);
    });
  });
})();
