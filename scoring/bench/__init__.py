"""The tournament-scale benchmark behind `manage.py bench` (issue 6).

`runner.run_benchmark` makes a fresh database (`database`), builds the synthetic event (`fixture`) and runs
each measurement — `validator`, `standings`, `record_deal`, `pdf_round`, `load` (with `server` and
`loadgen`) — against its floor; `report` judges them against the targets in `config` and describes the
machine.
"""
