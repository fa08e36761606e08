"""The PDF room: printed sheets (a table's blank and completed sheet, a round's pack, for the event's
directors) and the standings and seating lists (public, like the pages they print). The bytes come from
`scoring.printing`; this room fetches, authorises and wraps them."""
