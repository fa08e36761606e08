"""The organiser's pages (issue 11), included by scoring/urls.py:

scoring:desk             /desk/                  where a log-in lands: the director's event's dashboard
scoring:event_new        /events/new/            create an event
scoring:event_settings   /e/<slug>/settings/     change it (the ranking rules freeze at the first result)
scoring:event_clone      /e/<slug>/clone/        next month's night: its settings, directors, players
scoring:director_search  /events/directors/      the event form's directors, found by name (JSON)
"""

from django.urls import path

from . import views

urlpatterns: list = [
    path("desk/", views.desk, name="desk"),
    path("events/new/", views.event_new, name="event_new"),
    path("events/directors/", views.director_search, name="director_search"),
    path("e/<slug:slug>/settings/", views.event_settings, name="event_settings"),
    path("e/<slug:slug>/clone/", views.event_clone, name="event_clone"),
]
