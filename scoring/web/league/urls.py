"""Ratings across events and seasons (included by scoring/urls.py, which lists every room).

scoring:ratings             ratings/                          a game's list (?game= ?club= ?list=official)
scoring:rating_rule         ratings/rule/                     whom a game's list ranks, counts active (staff)
scoring:published_lists     ratings/lists/                    every game's published lists, newest first
scoring:publish             ratings/lists/publish/            POST: publish a game's live list (staff)
scoring:published_list      ratings/lists/<slug>/             one published list as published, CSV/XLSX export
scoring:published_pdf       ratings/lists/<slug>.pdf          the same, printed
scoring:rating_player       ratings/p/<player_id>/            a player's rating, history, events and places
scoring:rating_chart        ratings/p/<player_id>/chart.svg   their rating after each rated set
scoring:player_merge        ratings/p/<player_id>/merge/      POST: merge another record into this one (staff)
scoring:player_unmerge      ratings/p/<player_id>/unmerge/    POST: undo a merge into this record
scoring:league_log          ratings/log/                      season changes and merges (organisers)
scoring:seasons             seasons/
scoring:season_new          seasons/new/                      (staff)
scoring:season              seasons/<slug>/                   standings, events, CSV/XLSX export
scoring:season_ratings      seasons/<slug>/ratings/           the season's events alone, CSV/XLSX export
scoring:season_pdf          seasons/<slug>/standings.pdf
scoring:season_edit         seasons/<slug>/edit/              (staff)
scoring:season_series       seasons/<slug>/series/            legs, qualifiers, the final's field
scoring:season_series_lots  seasons/<slug>/series/lots/       POST: draw the lots a cut waits for
scoring:season_series_final seasons/<slug>/series/final/      POST: enter the qualifiers in the final
"""

from django.urls import path

from . import log, published, ratings, seasons, series

urlpatterns: list = [
    path("ratings/", ratings.ratings, name="ratings"),
    path("ratings/rule/", ratings.rating_rule_edit, name="rating_rule"),
    path("ratings/lists/", published.lists, name="published_lists"),
    path("ratings/lists/publish/", published.publish, name="publish"),
    path("ratings/lists/<slug:slug>/", published.published_list, name="published_list"),
    path("ratings/lists/<slug:slug>.pdf", published.published_pdf, name="published_pdf"),
    path("ratings/p/<int:player_id>/", ratings.rating_player, name="rating_player"),
    path("ratings/p/<int:player_id>/chart.svg", ratings.rating_chart_svg, name="rating_chart"),
    path("ratings/p/<int:player_id>/merge/", ratings.player_merge, name="player_merge"),
    path("ratings/p/<int:player_id>/unmerge/", log.player_unmerge, name="player_unmerge"),
    path("ratings/log/", log.log, name="league_log"),
    path("seasons/", seasons.seasons, name="seasons"),
    path("seasons/new/", seasons.season_new, name="season_new"),
    path("seasons/<slug:slug>/", seasons.season, name="season"),
    path("seasons/<slug:slug>/ratings/", seasons.season_ratings, name="season_ratings"),
    path("seasons/<slug:slug>/standings.pdf", seasons.season_pdf, name="season_pdf"),
    path("seasons/<slug:slug>/edit/", seasons.season_edit, name="season_edit"),
    path("seasons/<slug:slug>/series/", series.series_page, name="season_series"),
    path("seasons/<slug:slug>/series/lots/", series.series_lots, name="season_series_lots"),
    path("seasons/<slug:slug>/series/final/", series.series_final_entries, name="season_series_final"),
]
