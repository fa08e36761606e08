"""Public pages at the top, the director's entry and the printable sheets included below.

URL scheme (every part links by these names):
  scoring:home                      /
  scoring:event                     /e/<slug>/                     event page (standings)
  scoring:standings                 /e/<slug>/standings/           ?round=N &provisional=1, CSV/XLSX export
  scoring:round                     /e/<slug>/r/<number>/          tables of a round and their status
  scoring:seating                   /e/<slug>/r/<number>/seating/  where do I sit
  scoring:table                     /e/<slug>/r/<number>/t/<table>/  a set's public page
  scoring:player                    /e/<slug>/p/<entry_id>/        a player's history
  scoring:projector                 /e/<slug>/projector/
  organiser pages (scoring/event_urls.py) /events/new/, /e/<slug>/settings/, /e/<slug>/clone/
  director entry  (scoring/entry_urls.py) under /e/<slug>/direct/…
  printable PDFs  (scoring/pdf_urls.py)   under /e/<slug>/pdf/…
  ratings and seasons (scoring/league_urls.py) under /ratings/… and /seasons/…
  self-entry      (scoring/self_entry_urls.py) phones under /s/…, directors under …/direct/self-entry/
"""

from django.urls import include, path

from . import self_entry_urls, views

app_name = "scoring"
urlpatterns: list = [
    path("", views.home, name="home"),
    path("e/<slug:slug>/", views.event_page, name="event"),
    path("e/<slug:slug>/standings/", views.standings, name="standings"),
    path("e/<slug:slug>/r/<int:number>/", views.round_page, name="round"),
    path("e/<slug:slug>/r/<int:number>/seating/", views.seating, name="seating"),
    path("e/<slug:slug>/r/<int:number>/t/<int:table>/", views.set_page, name="table"),
    path("e/<slug:slug>/p/<int:entry_id>/", views.player, name="player"),
    path("e/<slug:slug>/projector/", views.projector, name="projector"),
    path("", include("scoring.event_urls")),
    path("e/<slug:slug>/direct/self-entry/", include(self_entry_urls.desk_patterns)),
    path("e/<slug:slug>/direct/", include("scoring.entry_urls")),
    path("s/", include(self_entry_urls.phone_patterns)),
    path("e/<slug:slug>/pdf/", include("scoring.pdf_urls")),
    path("", include("scoring.league_urls")),
]
