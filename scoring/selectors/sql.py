"""Names for statements written out by hand (the standings' figures, the sets' sums, the ratings' read):
a model's table and a field's column under an alias, quoted for the database in use."""

from __future__ import annotations

from django.db import connection


def sql_table(model) -> str:
    """A model's table, quoted."""
    return connection.ops.quote_name(model._meta.db_table)


def sql_column(alias: str, model, name: str) -> str:
    """A model field's column under a table alias, quoted."""
    return f"{alias}.{connection.ops.quote_name(model._meta.get_field(name).column)}"
