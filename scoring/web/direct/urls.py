"""The directors' URLs (included by scoring/urls.py, which lists every room): the entry desk under
/e/<slug>/direct/ (`urlpatterns`) and the self-entry desk under /e/<slug>/direct/self-entry/
(`desk_patterns`).

Every URL here is for the event's directors and staff only (`scoring.web.permissions.director_required`);
tests/scoring/test_roles_entry.py walks `urlpatterns`, so a new URL is checked for who may use it.

  scoring:direct                 ./                                   dashboard: rounds, tables, entries
  scoring:direct_round_create    ./rounds/new/                        POST: add the next round
  scoring:direct_round_seat      ./r/<number>/seat/                   POST: draw a round's seating
  scoring:direct_entry_add       ./entries/new/                       POST: a (late) entry
  scoring:direct_entry_withdraw  ./entries/<entry_id>/withdraw/       POST
  scoring:direct_entry_reinstate ./entries/<entry_id>/reinstate/      POST
  scoring:direct_players_import  ./players/import/                    CSV of players, with a report
  scoring:direct_table           ./r/<number>/t/<table>/              the grid; POST: the next deal
  scoring:direct_validate        ./r/<number>/t/<table>/validate/     POST (htmx): the live check
  scoring:direct_deal            ./r/<number>/t/<table>/d/<sequence>/ correct a deal; POST saves
  scoring:direct_deal_delete     …/d/<sequence>/delete/               POST
  scoring:direct_ruling          …/d/<sequence>/ruling/               POST: a ruling on a player
  scoring:direct_verify          ./r/<number>/t/<table>/verify/       POST
  scoring:direct_game_verify     ./r/<number>/t/<table>/game/verify/  POST: as direct_verify (a game)
  scoring:direct_reopen          ./r/<number>/t/<table>/reopen/       POST, with a reason
  scoring:direct_totals_readd    ./r/<number>/t/<table>/totals/       POST, confirmed: written totals re-added
  scoring:direct_laydown         ./r/<number>/t/<table>/laydown/      POST (htmx): check a lay-down
  scoring:direct_sheet_import    ./r/<number>/t/<table>/import/       a kalooki-sheet/1 JSON sheet
  scoring:direct_substitute      ./r/<number>/t/<table>/seat/<position>/substitute/
  scoring:direct_photo_add       ./r/<number>/t/<table>/photos/       POST: a photo of the signed sheet
  scoring:direct_photo           ./r/<number>/t/<table>/photos/<photo_id>/  the photo (JPEG)
  scoring:direct_entry_mode      ./entry-mode/                        POST: this director's entry mode
  scoring:direct_round_publish   ./r/<number>/publish/                POST: make a seated round public
  scoring:direct_console         ./r/<number>/console/                a round at a glance: each table's state
  scoring:direct_what_can_go_wrong ./what-can-go-wrong/               what to do; the fallback pack
  scoring:direct_job_round_pack  ./r/<number>/sheets/background/      POST: a round's sheets by the worker
  scoring:direct_job_standings   ./standings/background/              POST: the standings PDF by the worker
  scoring:direct_job_status      ./jobs/<job_id>/                     GET (JSON): how far a job is
  scoring:direct_job_download    ./jobs/<job_id>/download/            GET: a finished job's file
"""

from django.urls import path

from . import console, evidence, jobs, self_entry, views

TABLE = "r/<int:number>/t/<int:table>/"
DEAL = TABLE + "d/<int:sequence>/"

urlpatterns: list = [
    path("", views.dashboard, name="direct"),
    path("rounds/new/", views.round_create, name="direct_round_create"),
    path("r/<int:number>/seat/", views.round_seat, name="direct_round_seat"),
    path("entries/new/", views.entry_add, name="direct_entry_add"),
    path("entries/<int:entry_id>/withdraw/", views.entry_withdraw, name="direct_entry_withdraw"),
    path("entries/<int:entry_id>/reinstate/", views.entry_reinstate, name="direct_entry_reinstate"),
    path("players/import/", views.players_import, name="direct_players_import"),
    path(TABLE, views.table, name="direct_table"),
    path(TABLE + "validate/", views.validate, name="direct_validate"),
    path(DEAL, views.deal, name="direct_deal"),
    path(DEAL + "delete/", views.deal_delete, name="direct_deal_delete"),
    path(DEAL + "ruling/", views.ruling, name="direct_ruling"),
    path(TABLE + "verify/", views.verify, name="direct_verify"),
    # A game's verify form posted here before there was one verify view: the address stays.
    path(TABLE + "game/verify/", views.verify, name="direct_game_verify"),
    path(TABLE + "reopen/", views.reopen, name="direct_reopen"),
    path(TABLE + "totals/", views.totals_readd, name="direct_totals_readd"),
    path(TABLE + "laydown/", views.laydown, name="direct_laydown"),
    path(TABLE + "import/", views.sheet_import, name="direct_sheet_import"),
    path(TABLE + "seat/<int:position>/substitute/", views.substitute, name="direct_substitute"),
    path(TABLE + "photos/", evidence.photo_add, name="direct_photo_add"),
    path(TABLE + "photos/<int:photo_id>/", evidence.photo, name="direct_photo"),
    path("entry-mode/", views.entry_mode_choose, name="direct_entry_mode"),
    path("r/<int:number>/console/", console.console, name="direct_console"),
    path("r/<int:number>/publish/", console.round_publish, name="direct_round_publish"),
    path("what-can-go-wrong/", console.what_can_go_wrong, name="direct_what_can_go_wrong"),
    path("r/<int:number>/sheets/background/", jobs.round_pack_start, name="direct_job_round_pack"),
    path("standings/background/", jobs.standings_start, name="direct_job_standings"),
    path("jobs/<int:job_id>/", jobs.job_status, name="direct_job_status"),
    path("jobs/<int:job_id>/download/", jobs.job_download, name="direct_job_download"),
]

# The self-entry desk (issue 13), under /e/<slug>/direct/self-entry/:
#   scoring:self_entry_desk        ./                                the setting, the queue, the tables' codes
#   scoring:self_entry_mode        ./mode/                           POST
#   scoring:self_entry_regenerate  ./r/<number>/t/<table>/new-code/  POST
#   scoring:self_entry_accept      ./q/<entry_id>/accept/            POST
#   scoring:self_entry_dismiss     ./q/<entry_id>/reject/            POST, with a reason
#   scoring:self_entry_correct     ./q/<entry_id>/correct/           the entry form filled in; POST saves
desk_patterns: list = [
    path("", self_entry.desk, name="self_entry_desk"),
    path("mode/", self_entry.mode, name="self_entry_mode"),
    path("r/<int:number>/t/<int:table>/new-code/", self_entry.regenerate, name="self_entry_regenerate"),
    path("q/<int:entry_id>/accept/", self_entry.accept, name="self_entry_accept"),
    path("q/<int:entry_id>/reject/", self_entry.dismiss, name="self_entry_dismiss"),
    path("q/<int:entry_id>/correct/", self_entry.correct, name="self_entry_correct"),
]
