"""The league's room: ratings across events and seasons (read by anyone, CSV/XLSX export), a player's
rating page and chart, a season's standings (and their PDF); a season's organisers create and edit
seasons and merge a player's records."""
