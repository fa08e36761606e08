"""Rulings, appeals and the audit log, mounted at /adjudication/.

adjudication:rulings         e/<slug>/rulings/                         every ruling (directors)
adjudication:ruling          e/<slug>/rulings/<id>/                    one ruling and its history
adjudication:ruling_appeal   e/<slug>/rulings/<id>/appeal/             POST (directors)
adjudication:ruling_decide   e/<slug>/rulings/<id>/decide/             POST: upheld or overturned
adjudication:table_rulings   e/<slug>/r/<number>/t/<table>/rulings/    a table's rulings; ?deal=N issues
adjudication:table_history   e/<slug>/r/<number>/t/<table>/history/    a table's history (public)
adjudication:log             e/<slug>/log/                             the event's log (directors), CSV
"""

from django.urls import path

from . import views

app_name = "adjudication"
TABLE = "e/<slug:slug>/r/<int:number>/t/<int:table>/"
RULING = "e/<slug:slug>/rulings/<int:ruling_id>/"

urlpatterns: list = [
    path("e/<slug:slug>/rulings/", views.rulings, name="rulings"),
    path(RULING, views.ruling, name="ruling"),
    path(RULING + "appeal/", views.ruling_appeal, name="ruling_appeal"),
    path(RULING + "decide/", views.ruling_decide, name="ruling_decide"),
    path(TABLE + "rulings/", views.table_rulings, name="table_rulings"),
    path(TABLE + "history/", views.table_history, name="table_history"),
    path("e/<slug:slug>/log/", views.event_log, name="log"),
]
