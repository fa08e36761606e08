"""The phone's script (kalooki_tournament/static/js/self_entry.js) keeps its copy of a deal the server
refused because its idempotency key was sent before with other values (issue 22, item 4): held, shown
with the server's message, not sent again by itself, and sent under the fresh key once the player sends
the form. Run in Node with the few browser objects the script touches (skipped without Node)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[4] / "kalooki_tournament" / "static" / "js" / "self_entry.js"
NODE = shutil.which("node")

HARNESS = r"""
const fs = require("fs");
const scenario = JSON.parse(process.argv[3]);
const store = new Map(Object.entries(scenario.storage));
const storage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k),
};
const fields = {};
for (const [name, value] of Object.entries(scenario.fields)) { fields[name] = { name, value, type: "text" }; }
const listeners = {};
const form = {
  action: "/s/tok/enter/",
  getAttribute: (name) => (name === "data-outbox" ? "kalooki:self-entry:1" : null),
  elements: { namedItem: (name) => fields[name] || null },
  querySelector: (sel) => (sel === "[data-idempotency-key]" ? fields.idempotency_key : null),
  addEventListener: (type, fn) => { listeners[type] = fn; },
};
const problem = { hidden: true, textContent: "" };
const outbox = { hidden: true };
const windowListeners = {};
const timers = [];
const sent = [];
let reloaded = false;
global.FormData = function () { return Object.values(fields).map((f) => [f.name, f.value]); };
global.document = {
  querySelector: (sel) => (sel === "[data-self-entry-form]" ? form : null),
  querySelectorAll: () => [],
  getElementById: (id) => ({ "phone-problem": problem, "phone-outbox": outbox }[id] || null),
  createElement: () => ({ setAttribute() {} }),
};
global.window = {
  localStorage: storage,
  sessionStorage: storage,
  location: { pathname: "/s/tok/", reload: () => { reloaded = true; } },
  setTimeout: (fn) => { timers.push(fn); return timers.length; },
  addEventListener: (type, fn) => { windowListeners[type] = fn; },
  fetch: (url, options) => {
    sent.push(options.body);
    const answer = scenario.answers[Math.min(sent.length - 1, scenario.answers.length - 1)];
    return Promise.resolve({
      status: answer.status,
      headers: { get: () => "application/json" },
      json: () => Promise.resolve(answer.body),
    });
  },
};
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
(async () => {
  eval(fs.readFileSync(process.argv[2], "utf8"));
  await settle();
  const afterAnswer = { stored: storage.getItem("kalooki:self-entry:1"), problem: { ...problem },
    key: fields.idempotency_key.value, penalty: fields["p4-penalty"].value, reloaded };
  // The network comes back, a timer fires: a held copy is not sent by itself.
  if (windowListeners.online) { windowListeners.online(); }
  timers.splice(0).forEach((fn) => fn());
  await settle();
  const sentBeforeSubmit = sent.length;
  listeners.submit({ preventDefault() {} });
  await settle();
  console.log(JSON.stringify({ afterAnswer, sentBeforeSubmit, sent,
    storedAtEnd: storage.getItem("kalooki:self-entry:1"), reloaded }));
})();
"""

RESENT = {
    "status": 409,
    "body": {
        "ok": False,
        "kept": True,
        "message": "Deal 1 was already sent from this page with other values, and those stand.",
        "idempotency_key": "fresh-key",
    },
}
SAVED = {"status": 200, "body": {"ok": True, "message": "Deal 1 sent: waiting for confirmation."}}
PENDING = {"url": "/s/tok/enter/", "body": "deal=1&seat=1&p4-penalty=67&idempotency_key=k-1"}


def run(tmp_path, *, answers, storage) -> dict:
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    scenario = {
        "answers": answers,
        "storage": {key: json.dumps(value) for key, value in storage.items()},
        "fields": {"deal": "1", "seat": "1", "p4-penalty": "77", "idempotency_key": "page-key"},
    }
    done = subprocess.run(
        [NODE, str(harness), str(SCRIPT), json.dumps(scenario)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.skipif(NODE is None, reason="needs Node to run the phone's script")
def test_a_deal_refused_for_a_reused_key_stays_on_the_phone_with_the_message(tmp_path):
    result = run(tmp_path, answers=[RESENT, SAVED], storage={"kalooki:self-entry:1": PENDING})
    after = result["afterAnswer"]
    held = json.loads(after["stored"])
    assert held["held"] is True and held["body"] == PENDING["body"]
    assert after["problem"]["hidden"] is False and "already sent" in after["problem"]["textContent"]
    # Back in the form, under the fresh key the server gave.
    assert after["penalty"] == "67" and after["key"] == "fresh-key"
    assert not after["reloaded"]
    # Not sent again by itself.
    assert result["sentBeforeSubmit"] == 1
    # Sent by the player: the form as it is, under the fresh key, and then cleared.
    assert len(result["sent"]) == 2
    assert "idempotency_key=fresh-key" in result["sent"][1] and "p4-penalty=67" in result["sent"][1]
    assert result["storedAtEnd"] is None and result["reloaded"]


@pytest.mark.skipif(NODE is None, reason="needs Node to run the phone's script")
def test_a_deal_the_server_saved_leaves_the_phone(tmp_path):
    result = run(tmp_path, answers=[SAVED], storage={"kalooki:self-entry:1": PENDING})
    assert result["afterAnswer"]["stored"] is None and result["afterAnswer"]["reloaded"]
