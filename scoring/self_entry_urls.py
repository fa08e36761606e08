"""Self-entry at the tables (issue 13). The phones' pages (no log-in, the token is the key) under /s/,
the director's under /e/<slug>/direct/self-entry/ (scoring/urls.py includes both).

scoring:self_entry_short     /s/                               type the short code (event, table, code)
scoring:self_entry_phone     /s/<token>/                       the table's phone page
scoring:self_entry_check     /s/<token>/check/                 POST (htmx): the live check
scoring:self_entry_enter     /s/<token>/enter/                 POST: a deal entered
scoring:self_entry_confirm   /s/<token>/d/<entry_id>/confirm/  POST: another seat confirms
scoring:self_entry_reject    /s/<token>/d/<entry_id>/reject/   POST: another seat rejects, with a reason

scoring:self_entry_desk        ./                              the setting, the queue, the tables' codes
scoring:self_entry_mode        ./mode/                         POST
scoring:self_entry_regenerate  ./r/<number>/t/<table>/new-code/  POST
scoring:self_entry_accept      ./q/<entry_id>/accept/          POST
scoring:self_entry_dismiss     ./q/<entry_id>/reject/          POST, with a reason
scoring:self_entry_correct     ./q/<entry_id>/correct/         the entry form filled in; POST saves
"""

from django.urls import path

from . import self_entry_desk as desk
from . import self_entry_views as phone

phone_patterns: list = [
    path("", phone.short_code, name="self_entry_short"),
    path("<str:token>/", phone.phone, name="self_entry_phone"),
    path("<str:token>/check/", phone.check, name="self_entry_check"),
    path("<str:token>/enter/", phone.enter, name="self_entry_enter"),
    path("<str:token>/d/<int:entry_id>/confirm/", phone.confirm, name="self_entry_confirm"),
    path("<str:token>/d/<int:entry_id>/reject/", phone.reject, name="self_entry_reject"),
]

desk_patterns: list = [
    path("", desk.desk, name="self_entry_desk"),
    path("mode/", desk.mode, name="self_entry_mode"),
    path("r/<int:number>/t/<int:table>/new-code/", desk.regenerate, name="self_entry_regenerate"),
    path("q/<int:entry_id>/accept/", desk.accept, name="self_entry_accept"),
    path("q/<int:entry_id>/reject/", desk.dismiss, name="self_entry_dismiss"),
    path("q/<int:entry_id>/correct/", desk.correct, name="self_entry_correct"),
]
