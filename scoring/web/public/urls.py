"""The public pages' URLs (no log-in), included by `scoring/urls.py` under the namespace "scoring".

scoring:home                      /
scoring:event                     /e/<slug>/                     event page (standings)
scoring:standings                 /e/<slug>/standings/           ?round=N &provisional=1, CSV/XLSX export
scoring:round                     /e/<slug>/r/<number>/          tables of a round and their status
scoring:seating                   /e/<slug>/r/<number>/seating/  where do I sit
scoring:table                     /e/<slug>/r/<number>/t/<table>/  a set's public page
scoring:player                    /e/<slug>/p/<entry_id>/        a player's history
scoring:player_seat               /e/<slug>/p/<entry_id>/seat/   where a followed player sits (a fragment)
scoring:projector                 /e/<slug>/projector/
scoring:prizes                    /e/<slug>/prizes/              the prize list (issue 26)
"""

from django.urls import path

from . import prizes, views

urlpatterns: list = [
    path("", views.home, name="home"),
    path("e/<slug:slug>/", views.event_page, name="event"),
    path("e/<slug:slug>/standings/", views.standings, name="standings"),
    path("e/<slug:slug>/r/<int:number>/", views.round_page, name="round"),
    path("e/<slug:slug>/r/<int:number>/seating/", views.seating, name="seating"),
    path("e/<slug:slug>/r/<int:number>/t/<int:table>/", views.set_page, name="table"),
    path("e/<slug:slug>/p/<int:entry_id>/", views.player, name="player"),
    path("e/<slug:slug>/p/<int:entry_id>/seat/", views.player_seat, name="player_seat"),
    path("e/<slug:slug>/projector/", views.projector, name="projector"),
    path("e/<slug:slug>/prizes/", prizes.prizes, name="prizes"),
]
