"""Charts laid out on the server as SVG (no chart library, no script: the content security policy
allows neither inline code nor other hosts): a player's running total per deal in an event (inline on
their page), and their rating after each rated set (an SVG the app serves)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .ratings import starting_rating
from .selectors.players import ChartPoint
from .selectors.ratings import RatingStepRow

WIDTH = 640
HEIGHT = 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 36
LEGEND = 24  # the rating chart's legend, below its axis


def nice_step(top: int, ticks: int = 4) -> int:
    """A round step (1, 2, 5 × 10ⁿ) giving about `ticks` grid lines up to `top`."""
    raw = max(top / ticks, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return factor * magnitude
    return 10 * magnitude  # pragma: no cover - the loop always returns


def running_total_chart(points: Sequence[ChartPoint]) -> dict[str, Any] | None:
    """Layout of the chart for `player_history(...).chart` points (label, round, deal, total).

    Returns None without points; else width, height, line (polyline points), dots (x, y, label,
    total), ticks (y, value), rounds (x of the first deal of each round after the first, label), and
    axis ends.
    """
    if not points:
        return None
    top = max(max(point.total for point in points), 1)
    step = nice_step(top)
    top = -(-top // step) * step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    count = len(points)

    def x_at(index: int) -> float:
        return round(LEFT + (plot_w * index / (count - 1) if count > 1 else plot_w / 2), 1)

    def y_at(value: int) -> float:
        return round(TOP + plot_h - plot_h * value / top, 1)

    dots = [
        {"x": x_at(i), "y": y_at(p.total), "label": p.label, "total": p.total} for i, p in enumerate(points)
    ]
    rounds = []
    for index, point in enumerate(points):
        if index == 0 or point.round != points[index - 1].round:
            rounds.append({"x": x_at(index), "label": f"Round {point.round}", "first": index == 0})
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "label_y": HEIGHT - BOTTOM + 22,
        "line": " ".join(f"{dot['x']},{dot['y']}" for dot in dots),
        "dots": dots,
        "ticks": [{"y": y_at(value), "value": value} for value in range(0, top + 1, step)],
        "rounds": rounds,
        "final": points[-1].total,
        "deals": count,
    }


def rating_chart(steps: Sequence[RatingStepRow]) -> dict[str, Any] | None:
    """Layout of a player's rating after each rated set, from the starting rating: μ and the list's
    rating μ − 3σ, with a mark where each event starts. None without steps; else width, height, mu and
    rating (polyline points), ticks (y, value), events (x, label, anchor), the legend's y and the axis
    ends."""
    if not steps:
        return None
    start = starting_rating()
    values = [(start.mu, start.ordinal), *((step.mu, step.ordinal) for step in steps)]
    lowest = min(0.0, *(ordinal for _, ordinal in values))
    highest = max(mu for mu, _ in values)
    step_size = nice_step(max(int(highest - lowest), 1))
    bottom_value = math.floor(lowest / step_size) * step_size
    top_value = math.ceil(highest / step_size) * step_size
    span = max(top_value - bottom_value, 1)
    height = HEIGHT + LEGEND
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    count = len(values)

    def x_at(index: int) -> float:
        return round(LEFT + plot_w * index / (count - 1), 1)

    def y_at(value: float) -> float:
        return round(TOP + plot_h - plot_h * (value - bottom_value) / span, 1)

    events = []
    for index, step in enumerate(steps, start=1):
        if index == 1 or step.event_slug != steps[index - 2].event_slug:
            # The mark stands where the event's first set starts (the rating it brought in).
            x = x_at(index - 1)
            # A label near the right edge ends at its mark instead of running off the chart.
            anchor = "end" if x > WIDTH - RIGHT - 60 else "start"
            events.append({"x": x, "label": f"{step.day:%-d %b %Y}", "anchor": anchor, "first": index == 1})
    return {
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "label_y": HEIGHT - BOTTOM + 22,
        "legend_y": HEIGHT + LEGEND // 2 - 4,
        "mu": " ".join(f"{x_at(i)},{y_at(mu)}" for i, (mu, _) in enumerate(values)),
        "rating": " ".join(f"{x_at(i)},{y_at(ordinal)}" for i, (_, ordinal) in enumerate(values)),
        "ticks": [
            {"y": y_at(value), "value": value}
            for value in range(int(bottom_value), int(top_value) + 1, step_size)
        ],
        "events": events,
        "sets": len(steps),
        "first": start.ordinal,
        "final": steps[-1].ordinal,
    }
