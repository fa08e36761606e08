"""The directors' room: an event's directors and staff only. The entry desk (`views`: dashboard, rounds,
entries, a table's deals, verify, reopen; `british_game` for a game of hands' table, whose hand form is
`scoring/web/hand_forms.py`, shared with the phones), the background jobs' pages (`jobs`) and the
self-entry desk (`self_entry`: its queue and the tables' codes)."""
