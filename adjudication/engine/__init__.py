"""The rules engine: pure Python, standard library only (no Django, nothing from ``scoring``).

- ``cards``: cards and their notation; ``rules``: a game's parameters as a frozen ``RuleSet``;
- ``melds``: sets, runs and the plays on them; ``laydown``: a lay-down against a deal's contract;
- ``scoring``: hand values and a deal's scores (R14–R18); ``dealing``: dealer order, the deal due next and
  a deal's place in playing order (R19, R21);
- ``sheet``: reading and writing ``kalooki-sheet/1``; ``findings``: the validator's finding codes;
- ``validator``: checks V1–V14 of a sheet; ``simulator``: seeded valid sheets for tests and benchmarks.

British Kalooki (seed 002, RULES.md B1–B9) is a second family of rulesets beside the Jamaican one:
``british_rules`` (its presets), ``british_melds`` (sets, runs, the 40-point opening), ``british_sheet``
(a game sheet's hands), ``british_validator`` (BV1–BV8), ``british_game`` (who is in, finishing order),
``british_simulator``. ``rules.ruleset_from``, ``sheet.parse_sheet`` and ``validator.validate`` serve
both games; what the two share lives in ``parameters``, ``sheet_fields`` and ``packed_hands``.

North American Kaluki (seed 002's Variants, RULES.md NA1–NA6) is the third family, with the British modules'
names and shapes: ``north_american_rules`` (the ``north-american`` preset: hand size by table, ``hands`` a
game), ``north_american_melds`` (the ace high or low, the 51-point opening), ``north_american_sheet``,
``north_american_validator`` (NV1–NV4), ``north_american_game`` (standing and finishing order, highest
total first), ``north_american_simulator``. The same three doors serve it.
"""
