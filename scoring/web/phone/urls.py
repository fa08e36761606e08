"""The phones' URLs for self-entry at the tables (issue 13): no log-in, the token is the key; included
under /s/ by scoring/urls.py, which lists every room. The director's self-entry desk is in
scoring/web/direct/urls.py (`desk_patterns`).

scoring:self_entry_short     /s/                               type the short code (event, table, code)
scoring:self_entry_phone     /s/<token>/                       the table's phone page
scoring:self_entry_check     /s/<token>/check/                 POST (htmx): the live check
scoring:self_entry_enter     /s/<token>/enter/                 POST: a deal entered
scoring:self_entry_confirm   /s/<token>/d/<entry_id>/confirm/  POST: another seat confirms
scoring:self_entry_reject    /s/<token>/d/<entry_id>/reject/   POST: another seat rejects, with a reason
scoring:self_entry_photo     /s/<token>/photo/                 POST: a photo of the signed sheet (issue 23)
scoring:self_entry_set       /s/<token>/confirm-set/           POST: after the set, two seat codes confirm it
scoring:self_entry_withdraw  /s/<token>/d/<entry_id>/withdraw/ POST: after the set, a deal typed wrong
"""

from django.urls import path

from . import views as phone

urlpatterns: list = [
    path("", phone.short_code, name="self_entry_short"),
    path("<str:token>/", phone.phone, name="self_entry_phone"),
    path("<str:token>/check/", phone.check, name="self_entry_check"),
    path("<str:token>/enter/", phone.enter, name="self_entry_enter"),
    path("<str:token>/d/<int:entry_id>/confirm/", phone.confirm, name="self_entry_confirm"),
    path("<str:token>/d/<int:entry_id>/reject/", phone.reject, name="self_entry_reject"),
    path("<str:token>/photo/", phone.photo, name="self_entry_photo"),
    path("<str:token>/confirm-set/", phone.confirm_set, name="self_entry_set"),
    path("<str:token>/d/<int:entry_id>/withdraw/", phone.withdraw, name="self_entry_withdraw"),
]
