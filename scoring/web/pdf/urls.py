"""Printable PDFs under /e/<slug>/pdf/ (included by scoring/urls.py, which lists every room).

scoring:pdf_table_blank      r/<number>/t/<table>/blank.pdf   a table's sheet to fill in (directors)
scoring:pdf_table_sheet      r/<number>/t/<table>/sheet.pdf   the sheet filled in (directors)
scoring:pdf_round_sheets     r/<number>/sheets.pdf            every table's sheet (?completed=1) (directors)
scoring:pdf_round_fallback   r/<number>/fallback.pdf         seating lists + every blank sheet (directors)
scoring:pdf_seating          r/<number>/seating.pdf           by name and by table (public)
scoring:pdf_standings        standings.pdf                    ?round=N &provisional=1 (public)
scoring:pdf_prizes           prizes.pdf                       the prize list (public)
"""

from django.urls import path

from . import views as pdf_views

urlpatterns: list = [
    path("r/<int:number>/t/<int:table>/blank.pdf", pdf_views.table_blank, name="pdf_table_blank"),
    path("r/<int:number>/t/<int:table>/sheet.pdf", pdf_views.table_completed, name="pdf_table_sheet"),
    path("r/<int:number>/sheets.pdf", pdf_views.round_sheets, name="pdf_round_sheets"),
    path("r/<int:number>/fallback.pdf", pdf_views.round_fallback, name="pdf_round_fallback"),
    path("r/<int:number>/seating.pdf", pdf_views.seating, name="pdf_seating"),
    path("standings.pdf", pdf_views.standings, name="pdf_standings"),
    path("prizes.pdf", pdf_views.prizes, name="pdf_prizes"),
]
