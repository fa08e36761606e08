"""`manage.py create_director USERNAME --event SLUG [--password P | --reset-password] [--organiser]`.

Creates a director account (or finds it), lets it direct the named events, and sets or resets its
password without e-mail: with --password that password, for a new account or with
--reset-password a generated one, printed once. --organiser lets it set events up from the site's own
pages (create, change, clone: the "organise_events" permission). --door makes it a door helper of the
named events instead (issue 26): it checks players in there and does nothing else.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from adjudication.audit import audit_record
from scoring.models import Event
from scoring.services import event_add_director, grant_organiser
from scoring.services.door import event_door_helper_add


class Command(BaseCommand):
    help = "Create a director account for events, or reset a director's password."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--event", action="append", default=[], metavar="SLUG", help="repeat for several events"
        )
        parser.add_argument("--password", help="the password to set (checked by the validators)")
        parser.add_argument("--reset-password", action="store_true", help="generate and print a new password")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--organiser", action="store_true", help="may also create, set up and clone events"
        )
        parser.add_argument(
            "--door", action="store_true", help="a door helper of the events: checks players in, nothing else"
        )

    @transaction.atomic
    def handle(
        self, *args, username, event, password, reset_password, email, organiser=False, door=False, **options
    ):
        events = []
        for slug in event:
            found = Event.objects.filter(slug=slug).first()
            if found is None:
                raise CommandError(f"No event with the slug {slug!r}.")
            events.append(found)
        users = get_user_model()
        user = users.objects.filter(username=username).first()
        created = user is None
        if created:
            user = users(username=username, email=email)
        generated = None
        if password is None and (created or reset_password):
            generated = password = secrets.token_urlsafe(12)
        if password is not None:
            try:
                validate_password(password, user)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from exc
            user.set_password(password)
        user.save()
        if password is not None and not created:
            audit_record(
                event=None,
                action="kalooki.director.password_reset",
                user=None,
                obj=user,
                before=None,
                after={"username": username},
                reason="create_director",
            )
        for found in events:
            if door:
                event_door_helper_add(event=found, user=None, username=username)
            else:
                event_add_director(event=found, user=None, director=user)
        if organiser:
            grant_organiser(user)
        verb = "Created" if created else "Updated"
        self.stdout.write(f"{verb} director {username!r}.")
        for found in events:
            self.stdout.write(f"  {'door helper at' if door else 'directs'}: {found.name} ({found.slug})")
        if organiser:
            self.stdout.write("  organiser: may set events up")
        if generated:
            self.stdout.write(f"  password: {generated}")
        elif password is not None:
            self.stdout.write("  password set.")
