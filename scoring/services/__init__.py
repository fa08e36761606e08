"""Every write to the tournament's data (docs/ARCHITECTURE.md rule 4), one module a topic.

Each service takes keyword arguments only, runs in one transaction, locks the row it changes
(`select_for_update`, a real lock on PostgreSQL), refuses a stale save with `StaleEdit` (which names who
changed what and when), validates with `full_clean()` and writes one audit entry per change.
`user` may be None (management commands); the audit entry then has no user.

- `guards`: errors, the version check, the set lock, marking a change (shared by every write)
- `events` (create, change, clone, organisers, delete one made by mistake), `entries`, `rounds` (and
  seating, substitutes, knock-out qualifiers), `deals` (one `deal_record` for every game's deals and
  hands), `sets` (one `set_verify`: verify, or end a game still running; reopen), `closing` (a round
  closes with its last verified table), `imports` (a CSV of players, a whole sheet),
  `players` (the admin's add, rename, delete; merging two records of one person), `accounts` (the
  admin's account changes, staff above all), `seasons`, `series` (a qualifier series' lots and
  its final's entries), `ratings` (the stored rating lists, computed
  again when the results change), `jobs` (background jobs: recorded, run by the worker, pruned)

Callers import from the package (`from scoring import services; services.deal_record(...)`); modules
inside it import each other directly.
"""

from .accounts import account_delete, account_save
from .closing import round_close, round_close_if_complete, round_final_restore
from .deals import DealDeletion, DealOutcome, deal_delete, deal_record
from .entries import entry_add, entry_reinstate, entry_withdraw
from .events import (
    EDITABLE_EVENT_FIELDS,
    FROZEN_EVENT_FIELDS,
    event_add_director,
    event_clone,
    event_create,
    event_delete,
    event_update,
    grant_organiser,
)
from .guards import SetLocked, StaleEdit
from .imports import CsvImportReport, RejectedRow, players_import_csv, sheet_import
from .players import player_add, player_delete, player_merge, player_update
from .ratings import ratings_current, ratings_recompute
from .rounds import (
    DrawRecord,
    ManualTable,
    OpenRoundsNotConfirmed,
    round_create,
    round_publish,
    round_seat,
    round_seat_manual,
    seat_substitute,
)
from .seasons import SEASON_FIELDS, season_create, season_update
from .series import FinalEntries, final_entries_create, series_lots_draw, series_read
from .sets import set_reopen, set_totals_readd, set_verify, total_mismatches

__all__ = [
    "EDITABLE_EVENT_FIELDS",
    "FROZEN_EVENT_FIELDS",
    "SEASON_FIELDS",
    "CsvImportReport",
    "DealDeletion",
    "DealOutcome",
    "DrawRecord",
    "FinalEntries",
    "ManualTable",
    "OpenRoundsNotConfirmed",
    "RejectedRow",
    "SetLocked",
    "StaleEdit",
    "account_delete",
    "account_save",
    "deal_delete",
    "deal_record",
    "entry_add",
    "entry_reinstate",
    "entry_withdraw",
    "event_add_director",
    "event_clone",
    "event_create",
    "event_delete",
    "event_update",
    "final_entries_create",
    "grant_organiser",
    "player_add",
    "player_delete",
    "player_merge",
    "player_update",
    "players_import_csv",
    "ratings_current",
    "ratings_recompute",
    "round_close",
    "round_close_if_complete",
    "round_create",
    "round_final_restore",
    "round_publish",
    "round_seat",
    "round_seat_manual",
    "season_create",
    "season_update",
    "seat_substitute",
    "series_lots_draw",
    "series_read",
    "set_reopen",
    "set_totals_readd",
    "set_verify",
    "sheet_import",
    "total_mismatches",
]
