"""Everything that faces HTTP, one room per audience; the folder's name says who may enter.

- ``public/``: anyone, no log-in: the home page, an event's page, standings (and their CSV/XLSX
  export), a round, its seating, a table's page, a player's page, the projector.
- ``direct/``: an event's directors and staff: the entry desk (rounds, entries, tables, deals, the
  British game), the background jobs' pages, the self-entry desk (its queue and codes).
- ``organise/``: organisers: a new event, its settings, its clone (and the desk that sends a director to
  their event).
- ``league/``: ratings and seasons, read by anyone, changed by a season's organisers.
- ``phone/``: whoever holds a table's token: the self-entry phone page and the limit on its short code.
- ``pdf/``: printed sheets and standings as PDF (the bytes come from ``scoring.printing``).
- ``door/``: an event's directors and its door helpers (``Event.door_staff``): check-in on the night,
  the check-in list, the badge list and slips.

The modules directly in this folder are the support every room may use: who may enter
(``permissions``), the shared look-ups (``lookups``), responses (``responses``), query parameters
(``query``), the name filter (``filters``), form bases and the deal entry forms (``forms``), the
django-tables2 tables (``tables``, ``tables_british``) and their page (``table_page``), and a posted
form taken to its service call (``view_support``). They never import a room; no room imports another;
services, selectors and ``scoring.printing`` never import this package. Each room's ``urls.py`` holds
its patterns; ``scoring/urls.py`` includes them all under the one namespace ``scoring``.
"""
