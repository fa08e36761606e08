"""Each player's figures in a set, summed from its results: the one statement that sums them, for the
sets a subquery selects (`sums_sql`), used where a set changes (`services.guards.set_changed` stores
them as `SetSums`) and where the standings and the ratings read sets with no stored sums of their
current version (`selectors.standings`, `selectors.ratings`). Those reads take the stored rows under
the same names (`stored_sums_sql`) and only while they are of the set's version (`current_sums`).

The figures are those the standings add up per set (`standings.places_of_sets`): total, worst deal,
scored deals, deals the player went out in, and of those the doubled ones. Void deals count for
nothing (R19)."""

from __future__ import annotations

from ..models import Deal, DealResult, GameSet, SetSums
from .sql import sql_column, sql_table

# The columns `sums_sql` gives, in order.
SUMS_COLUMNS = ("set_id", "entry_id", "total", "worst", "deals", "won", "doubled")
# Where `SetSums` keeps each of them.
STORED_FIELDS = dict(
    zip(SUMS_COLUMNS, ("game_set", "entry", "total", "worst", "deals", "won", "doubled"), strict=True)
)


def stored_sums_sql(alias: str, columns: tuple[str, ...] = SUMS_COLUMNS) -> str:
    """The stored sums' `columns` (of `SUMS_COLUMNS`) under the table alias `alias`, named as `sums_sql`
    names them."""
    return ", ".join(f"{sql_column(alias, SetSums, STORED_FIELDS[column])} AS {column}" for column in columns)


def current_sums(sums: str, game_set: str) -> str:
    """The condition joining a set (alias `game_set`) to its stored sums (alias `sums`) of its current
    version: the only stored sums a read may take."""
    return (
        f"{sql_column(sums, SetSums, 'game_set')} = {game_set}.id"
        f" AND {sql_column(sums, SetSums, 'set_version')} = {sql_column(game_set, GameSet, 'version')}"
    )


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
