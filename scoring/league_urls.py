"""Ratings across events and seasons (see scoring/urls.py for the whole URL scheme).

scoring:ratings             ratings/                          every rated player, CSV/XLSX export
scoring:rating_player       ratings/p/<player_id>/            a player's rating, history, events and places
scoring:rating_chart        ratings/p/<player_id>/chart.svg   their rating after each rated set
scoring:player_merge        ratings/p/<player_id>/merge/      POST: merge another record into this one (staff)
scoring:seasons             seasons/
scoring:season_new          seasons/new/                      (staff)
scoring:season              seasons/<slug>/                   standings, events, CSV/XLSX export
scoring:season_ratings      seasons/<slug>/ratings/           the season's events alone, CSV/XLSX export
scoring:season_pdf          seasons/<slug>/standings.pdf
scoring:season_edit         seasons/<slug>/edit/              (staff)
"""

from django.urls import path

from . import rating_views, season_views

urlpatterns: list = [
    path("ratings/", rating_views.ratings, name="ratings"),
    path("ratings/p/<int:player_id>/", rating_views.rating_player, name="rating_player"),
    path("ratings/p/<int:player_id>/chart.svg", rating_views.rating_chart_svg, name="rating_chart"),
    path("ratings/p/<int:player_id>/merge/", rating_views.player_merge, name="player_merge"),
    path("seasons/", season_views.seasons, name="seasons"),
    path("seasons/new/", season_views.season_new, name="season_new"),
    path("seasons/<slug:slug>/", season_views.season, name="season"),
    path("seasons/<slug:slug>/ratings/", season_views.season_ratings, name="season_ratings"),
    path("seasons/<slug:slug>/standings.pdf", season_views.season_pdf, name="season_pdf"),
    path("seasons/<slug:slug>/edit/", season_views.season_edit, name="season_edit"),
]
