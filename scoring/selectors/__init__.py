"""Every read a screen, a PDF or a command needs (docs/ARCHITECTURE.md rule 5), one module a screen.

Each function runs a fixed number of queries whatever the event size (aggregates in SQL, then a small
Python pass). Screens get frozen rows (`SetPage`, `PlayerHistory`, `RoundStatus` …); the standings and
the seating are plain dict rows in the spec's JSON shape, shared by tables2, exports, PDFs and commands.

- `standings`: the standings as data (three views), knock-out qualifiers
- `standings_scope`: what a standings view counts and says (closed rounds, open rounds' progress,
  sets being corrected)
- `set_page`: one table's nine-deal grid and the live check of an unsaved deal
- `players`: one player's sets, deals, rulings and running totals
- `tables`: each round's tables and how far they are; where everyone sits

Selectors never import services. The adjudication reads (audit log, rulings) are `adjudication.selectors`.
"""

from .players import PlayerHistory, player_history
from .set_page import DealPreview, SetPage, deal_preview, set_grid
from .standings import (
    KNOCKOUT_FIELDS,
    STANDINGS_FIELDS,
    Standings,
    event_standings,
    knockout_qualifiers,
    standings,
    standings_fields,
    standings_for_event,
    standings_view,
)
from .standings_scope import CorrectedSet, RoundProgress, StandingsScope, standings_scope
from .tables import (
    RoundStatus,
    RoundSummary,
    TableStatus,
    Worklist,
    director_worklist,
    event_round_numbers,
    event_tables_status,
    player_seat,
    round_seating,
    round_summaries,
    round_tables_status,
    tables_in_play,
)

__all__ = [
    "KNOCKOUT_FIELDS",
    "STANDINGS_FIELDS",
    "CorrectedSet",
    "DealPreview",
    "PlayerHistory",
    "RoundProgress",
    "RoundStatus",
    "RoundSummary",
    "SetPage",
    "Standings",
    "StandingsScope",
    "TableStatus",
    "Worklist",
    "deal_preview",
    "director_worklist",
    "event_round_numbers",
    "event_standings",
    "event_tables_status",
    "knockout_qualifiers",
    "player_history",
    "player_seat",
    "round_seating",
    "round_summaries",
    "round_tables_status",
    "set_grid",
    "standings",
    "standings_fields",
    "standings_for_event",
    "standings_scope",
    "standings_view",
    "tables_in_play",
]
