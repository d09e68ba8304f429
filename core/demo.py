"""The demo's seeding, shared by the apps: the ``seed_demo`` command (gameplay) makes the
clubs, people and tournaments, then sends :data:`demo_seeded` so an app that sits beside
gameplay (the seasons) adds its own part without either importing the other."""

from django.dispatch import Signal

#: Sent once the demo's clubs and tournaments exist; kwargs ``owner`` (the organiser's
#: user) and ``club`` (the demo's first club).
demo_seeded = Signal()
