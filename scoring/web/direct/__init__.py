"""The directors' room: an event's directors and staff only. The entry desk (`views`: dashboard, rounds,
entries, a table's deals, verify, reopen; `british_game` and `british_forms` for a British table), the
background jobs' pages (`jobs`) and the self-entry desk (`self_entry`: its queue and the tables' codes)."""
