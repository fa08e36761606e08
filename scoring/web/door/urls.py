"""The door's URLs (issue 26), under /e/<slug>/door/ (included by scoring/urls.py). Every one is for the
event's directors and staff and its door helpers (`scoring.web.permissions.door_required`); the
settings, the release, the prize table, the fees and a void are for directors alone.

  scoring:door              ./                         find a player by code or name, photo or camera
  scoring:door_check_in     ./in/<entry_id>/<code>/    the slip's QR address: GET shows, POST checks in
  scoring:door_check_out    ./out/<entry_id>/          POST, with a reason
  scoring:door_add          ./add/                     POST: a player who arrived unregistered
  scoring:door_list         ./list/                    who is in, who arrived unregistered, who is missing
  scoring:door_badges       ./badges/                  PDF: the badge list, then one slip a player
  scoring:door_slip         ./slip/<entry_id>/         PDF: one player's slip
  scoring:door_settings     ./settings/                POST (directors): check-in on or off, the field cap
  scoring:door_helper_add   ./helpers/                 POST (directors): an account made a door helper
  scoring:door_release      ./release/                 POST (directors): release no-shows, promote
  scoring:door_prizes       ./prizes/                  the prize table (directors), with the list it gives
  scoring:door_players      ./players/                 the federation's fields of each player (directors)
  scoring:door_player       ./players/<entry_id>/      POST (directors): parish, date of birth, consent
  scoring:door_fees         ./fees/                    the fee ledger: who paid, how, who is to pay, totals
  scoring:door_fee_schedule ./fees/schedule/           POST (directors): the event's fees
  scoring:door_fee_record   ./fees/<entry_id>/         POST: a fee paid or waived
  scoring:door_fee_void     ./fees/line/<line_id>/void/  POST (directors), with a reason
  scoring:door_fee_export   ./fees/ledger.<extension>  the ledger as csv or xlsx
"""

from django.urls import path

from . import fees, views

urlpatterns: list = [
    path("", views.door, name="door"),
    path("in/<int:entry_id>/<str:code>/", views.check_in, name="door_check_in"),
    path("out/<int:entry_id>/", views.check_out, name="door_check_out"),
    path("add/", views.add_at_door, name="door_add"),
    path("list/", views.check_in_page, name="door_list"),
    path("badges/", views.badges, name="door_badges"),
    path("slip/<int:entry_id>/", views.slip, name="door_slip"),
    path("settings/", views.settings, name="door_settings"),
    path("helpers/", views.helper_add, name="door_helper_add"),
    path("release/", views.release, name="door_release"),
    path("prizes/", views.prize_table, name="door_prizes"),
    path("players/", views.players, name="door_players"),
    path("players/<int:entry_id>/", views.player_details, name="door_player"),
    path("fees/", fees.ledger, name="door_fees"),
    path("fees/schedule/", fees.schedule, name="door_fee_schedule"),
    path("fees/<int:entry_id>/", fees.record, name="door_fee_record"),
    path("fees/line/<int:line_id>/void/", fees.void, name="door_fee_void"),
    path("fees/ledger.<str:extension>", fees.export, name="door_fee_export"),
]
