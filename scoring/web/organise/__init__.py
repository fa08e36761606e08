"""The organisers' room: a new event, its settings (the ranking rules freeze at the first result), its
clone; and the desk a log-in lands on, which sends a director to their event's dashboard."""
