/* The British hand form (templates/direct/british_table.html): beside a ticked "Buys in", the total the
   player resets to, worked out while the director types — B7 as the service works it out
   (scoring.games.GameOfHands.with_computed): each line's total after this hand is its total before plus its
   score (typed; or the cards left valued as B5, doubled in a kalookie hand under B6's variant; the
   winner's 0), and the reset is the highest of those totals at or under the limit. A "Reset to" the
   director types is what the service keeps, and the note says so. Nothing is sent anywhere: the form
   carries the limit, the card values and each player's total before the hand. */
(function () {
  "use strict";

  var FORM = "form[data-british-hand]";
  var RANKS = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
  var SUITS = { S: "S", H: "H", D: "D", C: "C", "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C" };
  var JOKERS = { JK: true, "*": true, JOKER: true };

  function toArray(list) {
    return Array.prototype.slice.call(list);
  }

  function number(text) {
    return /^\s*\d+\s*$/.test(text) ? parseInt(text, 10) : null;
  }

  /* B5: one card's value, or null when the engine would not read the token (adjudication.engine.cards). */
  function cardValue(token, values) {
    token = token.replace(/[\ufe0e\ufe0f]/g, "").toUpperCase();
    if (JOKERS[token]) {
      return values.joker;
    }
    var suit = SUITS[token.slice(-1)];
    var rankText = token.slice(0, -1);
    var rank = RANKS.hasOwnProperty(rankText) ? RANKS[rankText] : null;
    if (rank === null && /^(?:[2-9]|10)$/.test(rankText)) {
      rank = parseInt(rankText, 10);
    }
    if (!suit || rank === null) {
      return null;
    }
    if (rank === 1) {
      return suit === "H" || suit === "D" ? values.redAce : values.blackAce;
    }
    return rank >= 10 ? values.tenToKing : rank;
  }

  function cardsValue(text, values) {
    var tokens = text.trim().split(/[\s,]+/).filter(Boolean);
    if (!tokens.length) {
      return null;
    }
    var sum = 0;
    for (var i = 0; i < tokens.length; i += 1) {
      var value = cardValue(tokens[i], values);
      if (value === null) {
        return null;
      }
      sum += value;
    }
    return sum;
  }

  function field(form, line, name) {
    return form.querySelector('[name="' + line.dataset.prefix + "-" + name + '"]');
  }

  function checked(form, name) {
    var box = form.querySelector('[name="' + name + '"]');
    return Boolean(box && box.checked);
  }

  /* The line's score as the service will store it, or null while it cannot be told. */
  function score(form, line, values) {
    var typed = field(form, line, "penalty").value;
    if (typed.trim() !== "") {
      return number(typed);
    }
    var out = form.querySelector('[name="out"]');
    if (out && out.value === line.dataset.player) {
      return 0;
    }
    var cards = cardsValue(field(form, line, "hand").value, values);
    if (cards === null) {
      return null;
    }
    return cards * (checked(form, "kalookie") ? values.kalookieFactor : 1);
  }

  function update(form) {
    var data = form.dataset;
    var values = {
      joker: Number(data.joker),
      blackAce: Number(data.blackAce),
      redAce: Number(data.redAce),
      tenToKing: Number(data.tenToKing),
      kalookieFactor: Number(data.kalookieFactor)
    };
    var limit = Number(data.limit);
    var lines = toArray(form.querySelectorAll("[data-line]"));
    var totals = {};
    var waiting = false;
    var reset = null;
    lines.forEach(function (line) {
      var points = score(form, line, values);
      if (points === null) {
        waiting = true;
        totals[line.dataset.player] = null;
        return;
      }
      var total = Number(line.dataset.before) + points;
      totals[line.dataset.player] = total;
      if (total <= limit && (reset === null || total > reset)) {
        reset = total;
      }
    });
    var isVoid = checked(form, "void");
    lines.forEach(function (line) {
      var output = line.querySelector("[data-live-reset]");
      var resetField = field(form, line, "reset_to");
      if (!output) {
        return;
      }
      var text = "";
      var value = "";
      if (field(form, line, "buy_in").checked && !isVoid) {
        var total = totals[line.dataset.player];
        if (waiting) {
          text = "resets once every score is typed";
        } else if (reset === null) {
          text = "no player is at or under " + limit;
        } else {
          value = String(reset);
          text = "resets to " + reset;
          if (total !== null && total <= limit) {
            text += " (but " + total + " is not over " + limit + ")";
          }
          var typed = resetField ? resetField.value.trim() : "";
          if (typed !== "" && typed !== value) {
            text += "; the typed " + typed + " is what is saved";
          }
        }
      }
      output.textContent = text;
      output.dataset.reset = value;
      if (resetField) {
        resetField.placeholder = value || "computed";
      }
    });
  }

  function start() {
    toArray(document.querySelectorAll(FORM)).forEach(function (form) {
      var run = function () { update(form); };
      form.addEventListener("input", run);
      form.addEventListener("change", run);
      run();
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
