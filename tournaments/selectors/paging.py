"""Pages of rows for the big public tables (pairings, standings, the players list): a page
costs what it shows (DESIGN.md, "Pages at scale").

Terms:
- a **page** is :data:`PAGE_ROWS` rows; ``?page=N`` asks for one (out of range: the
  nearest), ``?all=1`` for every row (print, export);
- a **search** (``?q=``) keeps the rows whose names hold every word asked, compared
  :func:`normalised` (case, accents and spacing aside: "elise" finds "Élise"), then pages
  what it found.

No query here: the callers read what the rows are made of and hand over the rows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Rows a page shows: a field of 100 or fewer fits on one page, which looks as it always did.
PAGE_ROWS = 100

#: The longest search taken (a name is at most 80 characters).
QUERY_MAX = 80


def normalised(text: str) -> str:
    """``text`` as a search compares it: accents off, case folded, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def query_words(query: str) -> list[str]:
    """The words of a search, normalised (blank: no search)."""
    return normalised(query[:QUERY_MAX]).split()


def found(words: Sequence[str], haystack: str) -> bool:
    """Whether every word of the search is in ``haystack`` (already :func:`normalised`)."""
    return all(word in haystack for word in words)


@dataclass(frozen=True)
class Paging:
    """What the reader asked for: a page number (1 first), every row, a search."""

    page: int = 1
    show_all: bool = False
    query: str = ""


@dataclass(frozen=True)
class Page(Generic[T]):
    """The rows shown and where they are among all: ``number`` of ``count`` pages,
    ``first``..``last`` (1-based) of ``total`` rows (after the search)."""

    rows: list[T]
    number: int
    count: int
    total: int
    first: int
    show_all: bool
    query: str
    #: Rows before the search (what "12 found of 2,048" counts).
    unfiltered: int

    @property
    def last(self) -> int:
        return self.first + len(self.rows) - 1 if self.rows else 0

    @property
    def paged(self) -> bool:
        """More than one page: the page shows its pager (else it looks as it always did)."""
        return self.count > 1

    @property
    def big(self) -> bool:
        """More rows than a page before any search: the page offers search and "show all"."""
        return self.unfiltered > PAGE_ROWS

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.count else None

    @property
    def numbers(self) -> list[int | None]:
        """The page numbers the pager links: the first, the last and two either side of
        this one; None where numbers are left out ("…")."""
        keep = {1, self.count, *range(self.number - 2, self.number + 3)}
        shown: list[int | None] = []
        for n in range(1, self.count + 1):
            if n in keep:
                shown.append(n)
            elif shown and shown[-1] is not None:
                shown.append(None)
        return shown


def page_of(
    rows: Sequence[T],
    paging: Paging,
    *,
    words_of: Callable[[T], str] | None = None,
    size: int = PAGE_ROWS,
) -> Page[T]:
    """The page of ``rows`` asked for. ``words_of`` gives a row's searchable words,
    already :func:`normalised` (None: the rows cannot be searched)."""
    unfiltered = len(rows)
    words = query_words(paging.query)
    if words and words_of is not None:
        rows = [row for row in rows if found(words, words_of(row))]
    return page_read(
        len(rows), paging, lambda start, stop: rows[start:stop], unfiltered=unfiltered, size=size
    )


def page_read(
    total: int,
    paging: Paging,
    read: Callable[[int, int | None], Sequence[T]],
    *,
    unfiltered: int | None = None,
    size: int = PAGE_ROWS,
) -> Page[T]:
    """The page asked for of ``total`` rows the caller counted, reading only its rows:
    ``read(start, stop)`` gives rows ``start``..``stop`` (0-based, ``stop`` excluded; None:
    to the end, for ``?all=1``), say a query's slice. The same page as :func:`page_of`
    would make of all the rows; ``unfiltered``: the rows before a search (default
    ``total``)."""
    unfiltered = total if unfiltered is None else unfiltered
    if paging.show_all:
        return Page(list(read(0, None)), 1, 1, total, 1, True, paging.query, unfiltered)
    count = max(1, -(-total // size))
    number = min(max(paging.page, 1), count)
    start = (number - 1) * size
    return Page(
        list(read(start, start + size)),
        number,
        count,
        total,
        start + 1,
        False,
        paging.query,
        unfiltered,
    )


def with_rows(page: Page[Any], rows: list[R]) -> Page[R]:
    """The same page with other rows made of its own (an index's rows -> the objects the
    template shows)."""
    return replace(page, rows=rows)
