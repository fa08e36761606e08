"""What the games-seam tests share: a British game built through the services (running, or finished and
verified), the address of one of its table's URLs, and the snapshot a refused request must leave alone."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from adjudication.engine.british_simulator import simulate_british_sheet
from adjudication.models import AuditEntry
from scoring import services
from scoring.models import GameSet
from tests.conftest import row_counts

THREE = ("Ann", "Bob", "Cy")

# Bob buys in at 95 on hand 2 and wins on hand 3 (Ann 110 and Cy 115 go out): a finished game.
GAME_TO_BOB = (
    {"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 60}, "Cy": {"penalty": 95}}},
    {
        "deal": 2,
        "out": "Cy",
        "results": {"Ann": {"penalty": 30}, "Bob": {"penalty": 50, "buy_in": True}, "Cy": {}},
    },
    {"deal": 3, "out": "Bob", "results": {"Ann": {"penalty": 80}, "Bob": {}, "Cy": {"penalty": 20}}},
)


def renamed_hands(names, hands=GAME_TO_BOB) -> list[dict[str, Any]]:
    """`hands` (of THREE) with Ann, Bob and Cy renamed `names`, in that order."""
    renamed = dict(zip(THREE, names, strict=True))
    return [
        {**hand, "out": renamed[hand["out"]], "results": {renamed[k]: v for k, v in hand["results"].items()}}
        for hand in hands
    ]


def running_hands(rules, players=THREE, *, hands: int = 9) -> list[dict[str, Any]]:
    """`hands` scored hands of a simulated game that runs on after them (the simulator stops there)."""
    for seed in range(200):
        whole = simulate_british_sheet(seed, players, rules=rules, with_hands=False, dealers=False)
        if sum(1 for hand in whole["deals"] if not hand.get("void")) <= hands:
            continue  # over by then
        sheet = simulate_british_sheet(
            seed, players, rules=rules, hands=hands, with_hands=False, dealers=False
        )
        if sum(1 for hand in sheet["deals"] if not hand.get("void")) == hands:
            return sheet["deals"]
    raise AssertionError(f"no simulated game runs past {hands} hands")


def record_hands(game_set: GameSet, user, hands) -> GameSet:
    """Record British hands through the one `deal_record` of every game."""
    for hand in hands:
        services.deal_record(game_set=game_set, user=user, data=hand)
    game_set.refresh_from_db()
    return game_set


def verify_game(game_set: GameSet, user) -> GameSet:
    """Verify a finished British game through the one `set_verify` of every game."""
    game_set.refresh_from_db()
    services.set_verify(game_set=game_set, user=user, expected_version=game_set.version)
    game_set.refresh_from_db()
    return game_set


def finish_and_verify(game_set: GameSet, user) -> GameSet:
    record_hands(game_set, user, GAME_TO_BOB)
    return verify_game(game_set, user)


def self_entry_on(event, user) -> None:
    """Self-entry switched on for `event`; for a game phones do not enter (where the service refuses it)
    the event is put in that state directly, as one switched on before the refusal existed: its tables'
    phone addresses must still answer without a server error."""
    from django.core.exceptions import ValidationError
    from self_entry_support import turn_on

    from scoring.models import Event

    try:
        turn_on(event, user)
    except ValidationError:
        Event.objects.filter(pk=event.pk).update(self_entry=Event.SelfEntry.RECORD)
        event.refresh_from_db()


def table_url(game_set: GameSet, name: str, **kwargs: Any) -> str:
    table = game_set.table
    return reverse(
        f"scoring:{name}",
        kwargs={
            "slug": table.round.event.slug,
            "number": table.round.number,
            "table": table.number,
            **kwargs,
        },
    )


def snapshot(game_set: GameSet) -> dict[str, Any]:
    """Everything a refused request must leave as it was: every model's row count, the set's status and
    version, its round's closing, the audit log's newest entry."""
    game_set.refresh_from_db()
    rnd = game_set.table.round
    rnd.refresh_from_db()
    return {
        "rows": row_counts(),
        "status": game_set.status,
        "version": game_set.version,
        "round_closed": rnd.closed_at,
        "last_audit": AuditEntry.objects.order_by("-pk").values_list("pk", "action").first(),
    }
