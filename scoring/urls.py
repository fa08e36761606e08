"""The one URL root (namespace "scoring"): each room of `scoring.web` brings its own patterns.

public pages       (scoring/web/public/urls.py)    /, /e/<slug>/ and the results pages under it
organiser pages    (scoring/web/organise/urls.py)  /desk/, /events/new/, /e/<slug>/settings/, /e/<slug>/clone/
director entry     (scoring/web/direct/urls.py)    under /e/<slug>/direct/… (self-entry desk too)
the door           (scoring/web/door/urls.py)      under /e/<slug>/door/… (check-in)
self-entry phones  (scoring/web/phone/urls.py)     under /s/…
printable PDFs     (scoring/web/pdf/urls.py)       under /e/<slug>/pdf/…
ratings and seasons (scoring/web/league/urls.py)   under /ratings/… and /seasons/…
"""

from django.urls import include, path

from .web.direct import urls as direct_urls

app_name = "scoring"
urlpatterns: list = [
    path("", include("scoring.web.public.urls")),
    path("", include("scoring.web.organise.urls")),
    path("e/<slug:slug>/direct/self-entry/", include(direct_urls.desk_patterns)),
    path("e/<slug:slug>/direct/", include("scoring.web.direct.urls")),
    path("e/<slug:slug>/door/", include("scoring.web.door.urls")),
    path("s/", include("scoring.web.phone.urls")),
    path("e/<slug:slug>/pdf/", include("scoring.web.pdf.urls")),
    path("", include("scoring.web.league.urls")),
]
