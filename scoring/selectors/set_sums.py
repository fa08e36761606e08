"""Each player's figures in a set, summed from its results: the one statement that sums them, for the
sets a subquery selects (`sums_sql`), used where a set changes (`services.guards.set_changed` stores
them as `SetSums`) and where the standings and the ratings read sets with no stored sums of their
current version (`selectors.standings`, `selectors.ratings`).

The figures are those the standings add up per set (`standings.places_of_sets`): total, worst deal,
scored deals, deals the player went out in, and of those the doubled ones. Void deals count for
nothing (R19)."""

from __future__ import annotations

from ..models import Deal, DealResult
from .sql import sql_column, sql_table

# The columns `sums_sql` gives, in order.
SUMS_COLUMNS = ("set_id", "entry_id", "total", "worst", "deals", "won", "doubled")


def sums_sql(sets_sql: str) -> str:
    """SELECT the `SUMS_COLUMNS` of every player with results in the sets `sets_sql` selects (a
    subquery giving set ids; its parameters are the statement's)."""
    table, col = sql_table, sql_column
    went_out = f"{col('d', Deal, 'out')} = {col('r', DealResult, 'entry')}"
    penalty = col("r", DealResult, "penalty")
    return f"""
        SELECT {col("d", Deal, "game_set")} AS set_id, {col("r", DealResult, "entry")} AS entry_id,
               SUM({penalty}) AS total, MAX({penalty}) AS worst,
               COUNT(*) AS deals, SUM(CASE WHEN {went_out} THEN 1 ELSE 0 END) AS won,
               SUM(CASE WHEN {went_out} AND {col("d", Deal, "doubled")} THEN 1 ELSE 0 END) AS doubled
        FROM {table(DealResult)} r
        JOIN {table(Deal)} d ON d.id = {col("r", DealResult, "deal")}
        WHERE {col("d", Deal, "game_set")} IN ({sets_sql}) AND NOT {col("d", Deal, "void")}
        GROUP BY {col("d", Deal, "game_set")}, {col("r", DealResult, "entry")}
    """
