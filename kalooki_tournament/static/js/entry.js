/* Director entry: a deal typed from the paper with the keyboard alone (issue 11).

   Enter moves to the next field to type — calls → score (→ total in totals mode) → the next player's
   calls, skipping the winner's score (0 is implied) — and on the last player saves the deal. A save with
   empty lines names them beside the lines and waits; Enter again saves anyway (a draft the validator
   reports). "+" or Alt+M opens a line's other fields, "?" the cheat-sheet. The save itself is htmx
   (data-hx-post on the form): the next deal's page comes back in one round trip, and focus goes to its first
   field, or to the first field a refused save names. The live check is htmx too (data-hx-post on #deal-check). */
(function () {
  "use strict";

  var FORM = "form[data-entry-form]";

  function toArray(list) {
    return Array.prototype.slice.call(list);
  }

  function lines(form) {
    return toArray(form.querySelectorAll("[data-line]"));
  }

  function fieldOf(line, name) {
    return line.querySelector('[name="p' + line.dataset.line + "-" + name + '"]');
  }

  function winner(form) {
    var out = form.querySelector('[name="out"]');
    return out ? out.value : "";
  }

  function isVoid(form) {
    var box = form.querySelector('[name="void"]');
    return Boolean(box && box.checked);
  }

  /* The fields Enter visits on a line, in order. */
  function path(form, line) {
    var names = form.dataset.mode === "fast" ? ["calls", "penalty"] : ["calls", "penalty", "total"];
    if (line.dataset.player === winner(form)) {
      names = names.filter(function (name) { return name !== "penalty"; });
    }
    return names.map(function (name) { return fieldOf(line, name); }).filter(Boolean);
  }

  function typed(line) {
    return toArray(line.querySelectorAll("input, select")).some(function (input) {
      if (input.type === "checkbox") {
        return input.checked;
      }
      return input.value.trim() !== "";
    });
  }

  function emptyLines(form) {
    if (isVoid(form)) {
      return [];
    }
    var out = winner(form);
    return lines(form).filter(function (line) {
      return line.dataset.player !== out && !typed(line);
    });
  }

  function status(form) {
    var box = form.querySelector("[data-entry-status]");
    if (!box) {
      box = document.createElement("p");
      box.className = "entry-status";
      box.setAttribute("data-entry-status", "");
      box.setAttribute("role", "status");
      form.appendChild(box);
    }
    return box;
  }

  /* Save unless lines are empty; then name them and wait (the same empty lines again: save anyway). */
  function save(form) {
    var empty = emptyLines(form);
    var names = empty.map(function (line) { return line.dataset.player; });
    var key = names.join("|");
    lines(form).forEach(function (line) {
      var note = line.querySelector("[data-empty-note]");
      if (note) {
        note.hidden = empty.indexOf(line) < 0;
      }
    });
    if (empty.length && form.dataset.warned !== key) {
      form.dataset.warned = key;
      status(form).textContent = "No result typed for " + names.join(", ") +
        ": type " + (empty.length > 1 ? "those lines" : "that line") + ", or press Enter again to save anyway.";
      return false;
    }
    delete form.dataset.warned;
    // A live check still on its way belongs to this deal: it must not land on the next one.
    var check = document.getElementById("deal-check");
    if (check && window.htmx) {
      window.htmx.trigger(check, "htmx:abort");
    }
    if (typeof form.requestSubmit === "function") {
      form.dataset.checked = "yes";
      form.requestSubmit();
    } else {
      form.submit();
    }
    return true;
  }

  function focusField(input) {
    if (!input) {
      return;
    }
    input.focus();
    if (typeof input.select === "function" && input.type === "text") {
      input.select();
    }
  }

  function onEnter(event, form) {
    var target = event.target;
    if (target.tagName === "TEXTAREA" || target.tagName === "BUTTON" || target.tagName === "A") {
      return;
    }
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) {
      save(form);
      return;
    }
    var line = target.closest("[data-line]");
    var all = lines(form);
    if (!line) {
      // A deal-level field (who went out, doubled, void, dealer, the reason): on to the first player.
      if (all.length && !isVoid(form)) {
        focusField(path(form, all[0])[0]);
      } else {
        save(form);
      }
      return;
    }
    var steps = path(form, line);
    var at = steps.indexOf(target);
    if (at >= 0 && at < steps.length - 1) {
      focusField(steps[at + 1]);
      return;
    }
    var index = all.indexOf(line);
    if (index < all.length - 1) {
      focusField(path(form, all[index + 1])[0]);
      return;
    }
    save(form);
  }

  function toggleMore(button, open) {
    var panel = document.getElementById(button.getAttribute("aria-controls"));
    if (!panel) {
      return null;
    }
    var show = open === undefined ? panel.hidden : open;
    panel.hidden = !show;
    button.setAttribute("aria-expanded", show ? "true" : "false");
    return show ? panel : null;
  }

  function onMore(event, form) {
    var target = event.target;
    var holder = target.closest("[data-line]") || form.querySelector(".deal-fields");
    var button = holder && holder.querySelector("[data-more-toggle]");
    if (!button) {
      return;
    }
    event.preventDefault();
    var panel = toggleMore(button);
    if (panel) {
      var first = panel.querySelector("input, select");
      if (first) {
        first.focus();
      }
    }
  }

  function typesText(target) {
    // Free text (a hand, a reason) may hold any character: keys act only on numbers, choices and boxes.
    if (target.tagName === "TEXTAREA") {
      return true;
    }
    return target.tagName === "INPUT" && target.type === "text" && target.getAttribute("inputmode") !== "numeric";
  }

  function openKeys() {
    var dialog = document.getElementById("entry-keys");
    if (dialog && !dialog.open && typeof dialog.showModal === "function") {
      dialog.showModal();
    }
  }

  /* Who went out (or dealt) by first letter: the first player with that initial, and a second press of
     the same letter the next one (Andre, then Althea), never silently the first of two. The chosen
     name is said beside the field, with the others who share the initial. */
  function initialOf(text) {
    return text.trim().normalize("NFD").charAt(0).toLocaleLowerCase();
  }

  function chooseByInitial(select, key) {
    var letter = initialOf(key);
    var options = toArray(select.options).filter(function (option) {
      return option.value !== "" && initialOf(option.text) === letter;
    });
    if (!options.length) {
      return false;
    }
    var at = options.indexOf(select.options[select.selectedIndex]);
    var chosen = options[(at + 1) % options.length];
    select.value = chosen.value;
    select.dispatchEvent(new Event("input", { bubbles: true }));
    select.dispatchEvent(new Event("change", { bubbles: true }));
    sayChosen(select, options, chosen, key);
    return true;
  }

  function sayChosen(select, options, chosen, key) {
    var echo = document.getElementById(select.id + "-chosen");
    if (!echo) {
      return;
    }
    var others = options.filter(function (option) { return option !== chosen; });
    var next = others.length ? options[(options.indexOf(chosen) + 1) % options.length].text : "";
    echo.textContent = chosen.text + (next ? " (" + options.length + " with " + key.toUpperCase() +
      ": press " + key.toUpperCase() + " again for " + next + ")" : "");
  }

  function sayChoice(select) {
    var echo = document.getElementById(select.id + "-chosen");
    if (echo) {
      var option = select.options[select.selectedIndex];
      echo.textContent = option && option.value ? option.text : "";
    }
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (event.isTrusted && target.tagName === "SELECT" && target.hasAttribute("data-by-initial")) {
      sayChoice(target);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.isComposing) {
      return;
    }
    var picker = event.target;
    if (picker.tagName === "SELECT" && picker.hasAttribute("data-by-initial") && event.key.length === 1 &&
        /\p{L}/u.test(event.key) && !event.ctrlKey && !event.altKey && !event.metaKey) {
      if (chooseByInitial(picker, event.key)) {
        event.preventDefault();
      }
      return;
    }
    var target = event.target;
    var form = target.closest && target.closest(FORM);
    if (event.key === "?" && !typesText(target) && !event.ctrlKey && !event.altKey && !event.metaKey) {
      if (form || target === document.body || target.id === "main") {
        event.preventDefault();
        openKeys();
      }
      return;
    }
    if (!form) {
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      onEnter(event, form);
      return;
    }
    if ((event.key === "+" && !typesText(target)) || (event.altKey && (event.key === "m" || event.key === "M"))) {
      onMore(event, form);
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-more-toggle], [data-more-all], [data-keys-open]");
    if (!target) {
      return;
    }
    if (target.hasAttribute("data-keys-open")) {
      openKeys();
      return;
    }
    if (target.hasAttribute("data-more-toggle")) {
      toggleMore(target);
      return;
    }
    var form = target.closest(FORM);
    if (form) {
      toArray(form.querySelectorAll("[data-more-toggle]")).forEach(function (button) {
        toggleMore(button, true);
      });
    }
  });

  /* A click on "Save" passes the same empty-lines check as Enter (captured before htmx sends it). */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches(FORM)) {
      return;
    }
    if (form.dataset.checked === "yes") {
      delete form.dataset.checked;
      return;
    }
    if (emptyLines(form).length && form.dataset.warned !== emptyLines(form).map(function (line) {
      return line.dataset.player;
    }).join("|")) {
      event.preventDefault();
      event.stopImmediatePropagation();
      save(form);
    }
  }, true);

  /* The live check of a deal whose page has been replaced (saved meanwhile) is neither sent nor shown:
     its findings belong to that deal, not to the next one on screen. Its events no longer reach the
     document once the element is detached, so the guard sits on the element itself. */
  function guardLiveCheck(scope) {
    var check = scope.querySelector("#deal-check");
    if (!check || check.dataset.guarded) {
      return;
    }
    check.dataset.guarded = "yes";
    check.addEventListener("htmx:beforeRequest", function (event) {
      if (!check.isConnected) {
        event.preventDefault();
      }
    });
    check.addEventListener("htmx:beforeSwap", function (event) {
      if (!check.isConnected) {
        event.detail.shouldSwap = false;
      }
    });
  }

  /* After a page or a swapped-in page: focus the first field a refusal names, else the page's own. */
  function settle(root) {
    var scope = root || document;
    guardLiveCheck(scope);
    // Another form of the page refused (focus-refused.js gives it the focus): the deal form waits.
    var refusedElsewhere = document.querySelector("form[data-refused-focus]");
    var first = scope.querySelector("[data-focus-on-load]") ||
      scope.querySelector(FORM + ' [aria-invalid="true"]') ||
      (refusedElsewhere ? null : scope.querySelector(FORM + " [autofocus]"));
    if (first) {
      // A refused field inside a closed "more" panel: open it first.
      var panel = first.closest("[hidden]");
      if (panel && panel.id) {
        var button = document.querySelector('[aria-controls="' + panel.id + '"]');
        if (button) {
          toggleMore(button, true);
        }
      }
      first.focus();
      var section = first.closest(".deal-entry");
      if (section && typeof section.scrollIntoView === "function") {
        section.scrollIntoView({ block: "nearest" });
      }
    }
  }

  document.addEventListener("DOMContentLoaded", function () { settle(document); });

  /* htmx: a refused save (400, or 409 when someone else saved first) comes back as a page to show. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status === 400 || status === 409) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
    var target = event.detail.target;
    if (target && target.tagName === "MAIN" && document.activeElement && document.activeElement.blur) {
      // htmx would put the focus back on the field of the same id (the last total); the new page's
      // first field, or the field a refusal names, gets it instead (settle, below).
      document.activeElement.blur();
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    // Only the save's swap of the whole page moves the focus; the live check's swaps never do.
    var swapped = event.detail && (event.detail.elt || event.detail.target);
    var main = document.getElementById("main");
    if (main && swapped && (swapped === main || swapped.tagName === "MAIN")) {
      settle(main);
    }
  });
})();
