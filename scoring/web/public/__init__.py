"""The public room: no log-in. The home page, an event's page, its standings (and their CSV/XLSX
export), a round, its seating, a table's page (`british_game` for a British table), a player's page
and the projector."""
