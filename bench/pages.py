"""A signed-in player's pages, two trees side by side: ``python -m bench.pages --revision REV
[--players 2048] [--requests 25] [--turns 24]``.

One Swiss of ``--players`` players, round 1 paired (``bench.http``'s set-up, its sessions as
``bench.peak`` makes them), in a database of its own. Then this tree and ``REV`` (checked out
in a temporary worktree) each serve the same player's pages in a process of their own
(Django's test client: the pages' own work, without the HTTP server), by turns:
``--requests`` requests of one page in one process, then in the other, ``--turns`` times
(the first two turns left out as the warm-up), the order swapped every turn. For each
page it prints the CPU each tree spent a request, in its process and in the PostgreSQL
backend serving it, and the ratio.

Why by turns: the machine's speed moves by a third between runs of a few minutes (the
shared cores of the development machine), more than a change worth measuring; two trees
served request by request in the same minutes see the same machine. Both trees read the
same database: ``REV`` must have the same migrations (it is refused otherwise).

Needs PostgreSQL and Redis (``DATABASE_URL`` base and ``BENCH_REDIS_URL``, as
``bench.http``) and this machine's ``/proc`` (the backend's CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from bench.common import prepare_database_and_django
from bench.http import ROOT, _checkout, _set_up
from bench.peak import environment_of

#: The pages of a player at a round's start (``{t}``: the tournament).
PAGES = [
    ("/healthz", "the machine's floor"),
    ("/", "a player's home"),
    ("/tournaments/{t}/rounds/1/", "pairings by table"),
    ("/tournaments/{t}/standings/", "standings"),
    ("/tournaments/{t}/my-match/", "my match (a redirect)"),
]

#: Run in each tree (``python -c``): the older tree need not have this file.
WORKER = r"""
import json, os, sys, time
import django
django.setup()
from django.db import connection
from django.test import Client

given = json.loads(sys.argv[1])
client = Client(HTTP_HOST="127.0.0.1")
client.cookies.load(given["cookie"])
tick = os.sysconf("SC_CLK_TCK")

def backend_cpu(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick

print("ready", flush=True)
for line in sys.stdin:
    path, count = line.split()
    path = path.format(t=given["tournament"])
    status = client.get(path).status_code
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    cpu, database = time.process_time(), backend_cpu(pid)
    for _ in range(int(count)):
        client.get(path)
    print(status, time.process_time() - cpu, backend_cpu(pid) - database, flush=True)
"""


def _same_migrations(revision: str) -> bool:
    changed = subprocess.run(
        ["git", "diff", "--name-only", revision, "--", "*/migrations/*"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return not changed


def _event(players: int) -> dict[str, object]:
    """The tournament and one of its players' session cookie."""
    from django.db import connection

    from bench.peak import _people

    tables = _set_up("pages", 1, players)
    event = _people("pages", tables, 1)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    tournament = event.tournaments[0]
    return {"tournament": tournament, "cookie": event.players[tournament][5]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revision", required=True, help="the earlier commit to compare with")
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--requests", type=int, default=25, help="requests of a page a turn")
    parser.add_argument("--turns", type=int, default=24, help="turns a page (two: warm-up)")
    args = parser.parse_args()
    if not _same_migrations(args.revision):
        sys.exit(f"{args.revision} has other migrations: the trees cannot share a database")
    env = environment_of("pages")
    prepare_database_and_django(env, str(ROOT))
    from django.contrib.sessions.models import Session

    Session.objects.all().delete()
    given = json.dumps(_event(args.players))
    short, old_root = _checkout(args.revision)
    sides = [(short, old_root), ("this", ROOT)]
    workers = []
    for _, root in sides:
        worker = subprocess.Popen(
            [sys.executable, "-c", WORKER, given],
            cwd=root,
            env={**env, "PYTHONPATH": str(root)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert worker.stdin and worker.stdout
        if worker.stdout.readline().strip() != "ready":
            sys.exit(f"the worker in {root} did not start")
        workers.append(worker)
    print(
        f"\n{args.players} players, round 1 paired; {args.requests} requests a turn, "
        f"{args.turns - 2} turns a page (by turns, order swapped each turn); CPU ms a request\n"
        f"{'page':<24} {short + ' py':>10} {'this py':>8} {'ratio':>6}"
        f" {short + ' db':>10} {'this db':>8} {'ratio':>6}",
        flush=True,
    )
    problems = []
    for path, label in PAGES:
        spent = [[0.0, 0.0], [0.0, 0.0]]
        for turn in range(args.turns):
            for side in [0, 1] if turn % 2 == 0 else [1, 0]:
                worker = workers[side]
                assert worker.stdin and worker.stdout
                worker.stdin.write(f"{path} {args.requests}\n")
                worker.stdin.flush()
                status, python, database = worker.stdout.readline().split()
                if not 200 <= int(status) < 400:
                    problems.append(f"{label} answered {status} in {sides[side][0]}")
                if turn >= 2:
                    spent[side][0] += float(python)
                    spent[side][1] += float(database)
        count = args.requests * (args.turns - 2) / 1000
        (old_py, old_db), (new_py, new_db) = ((p / count, d / count) for p, d in spent)
        print(
            f"{label:<24} {old_py:>10.2f} {new_py:>8.2f} {new_py / old_py:>6.2f}"
            f" {old_db:>10.2f} {new_db:>8.2f} {new_db / old_db if old_db else 0:>6.2f}",
            flush=True,
        )
    for worker in workers:
        assert worker.stdin
        worker.stdin.close()
        worker.wait()
    subprocess.run(["git", "worktree", "remove", "--force", str(old_root)], cwd=ROOT, check=False)
    for problem in problems:
        print(f"CHECK FAILED: {problem}", flush=True)
    return 1 if problems else 0


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.exit(main())
