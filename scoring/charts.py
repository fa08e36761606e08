"""A player's running total per deal as an inline SVG, laid out on the server (no chart library,
no script: the content security policy allows neither inline code nor other hosts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .selectors.players import ChartPoint

WIDTH = 640
HEIGHT = 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 36


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
