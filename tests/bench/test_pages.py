"""``bench.pages``'s own parts, without the full stack: the worker it runs in each tree is
valid Python on its own, and a revision with the same migrations may share the database."""

from __future__ import annotations

from bench.pages import PAGES, WORKER, _same_migrations


def test_the_worker_is_a_program_of_its_own() -> None:
    compile(WORKER, "<bench.pages worker>", "exec")
    assert "bench" not in WORKER  # the older tree need not have this package's new files


def test_the_same_tree_shares_the_database_and_every_page_names_its_tournament_alike() -> None:
    assert _same_migrations("HEAD")
    assert all(
        (path.startswith("/") and "{t}" in path) or path in ("/", "/healthz") for path, _ in PAGES
    )
