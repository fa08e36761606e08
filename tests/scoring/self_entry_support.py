"""What the self-entry tests share: a table's token and address, and deal 1 of the example sheet as the
phone's form posts it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.urls import reverse

from scoring.models import TableKey
from scoring.self_entry_codes import seat_code_for, token_for
from scoring.services import self_entry as service

# Deal 1 of tests/data/example-sheet.json: Cy went out; calls and scores by seat (Ann, Bob, Cy, Dee).
DEAL_ONE = {1: (0, 23), 2: (3, 15), 3: (1, 0), 4: (1, 77)}


def table_token(game_set) -> str:
    keys = service.table_keys_ensure(tables=[game_set.table])
    return token_for(keys[game_set.table_id].selector)


def seat_code(game_set, position: int) -> str:
    """The code printed beside the player in seat `position` of the set's table (its current key)."""
    key = TableKey.objects.get(table_id=game_set.table_id, retired_at__isnull=True)
    return seat_code_for(key.selector, position)


def deal_one_data(names=("Ann", "Bob", "Cy", "Dee")) -> dict[str, Any]:
    """Deal 1 of the example sheet as the self-entry services take it (the `kalooki-sheet/1` shape)."""
    return {
        "deal": 1,
        "out": names[2],
        "dealer": names[0],
        "results": {
            name: {"calls": calls, "penalty": penalty}
            for name, (calls, penalty) in zip(names, DEAL_ONE.values(), strict=True)
        },
    }


def phone_url(token: str, name: str = "self_entry_phone", **kwargs: Any) -> str:
    return reverse(f"scoring:{name}", kwargs={"token": token, **kwargs})


def deal_one_form(game_set, *, seat: int = 1, key: str = "send-1", **changes: Any) -> dict[str, Any]:
    """The phone's form for deal 1 as Cy went out, entered by `seat`."""
    game_set.refresh_from_db()
    data: dict[str, Any] = {
        "deal": 1,
        "out": "Cy",
        "dealer": "Ann",
        "set_version": game_set.version,
        "seat": seat,
        "seat_code": seat_code(game_set, seat),
        "idempotency_key": key,
    }
    for position, (calls, penalty) in DEAL_ONE.items():
        data[f"p{position}-calls"] = calls
        data[f"p{position}-penalty"] = penalty
    data.update(changes)
    return data


def turn_on(event, director, mode: str = "record") -> None:
    event.refresh_from_db()
    service.self_entry_mode_set(event=event, user=director, mode=mode)
    event.refresh_from_db()


@pytest.fixture(autouse=True)
def fresh_limits():
    """No wrong tries left over from another test (Redis keeps them between tests)."""
    caches["ratelimit"].clear()
    yield
    caches["ratelimit"].clear()
