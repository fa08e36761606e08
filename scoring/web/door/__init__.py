"""The door (issue 26): checking players in on the night, for the event's directors and its door helpers."""
