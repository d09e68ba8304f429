"""Reads compiled once: a hot read's queryset built and compiled by Django once per thread,
then only run with each call's values.

Django builds and compiles a queryset anew each time it runs: resolving its filters, joins
and subqueries, then writing the SQL. For the reads every signed-in reader makes (their
home's lists, their match, their row of a big table) that costs more CPU than PostgreSQL's
answering them (a player's home at 2,048 entrants: about 18 ms of building and compiling
for 3 ms of SQL). :func:`rows` builds the queryset once with stand-in values, compiles it,
notes where each stand-in went in the statement's parameters, and from then on runs the
statement with the caller's values, turning rows into objects as Django's own iteration
does (related objects, annotations, ``values()`` and ``values_list()``, prefetches).

What ``build`` may do: take ints (not bools), strings, or lists of them (a list's length is part of
the statement's shape: each length is compiled once) and return a queryset whose
structure depends on nothing else: no clock, no setting, no other argument's value (a
statement holds the values it was compiled with, except the arguments). A branch on a
value belongs in ``name`` (two names, two statements). :func:`rows` refuses a build that
leaves an argument out of the statement or writes one into the SQL text.

``core.locks.lock_by_key`` is the same idea for the locking statements, and
:func:`insert` for the rows every result writes (its report, audit entry, event and the
event's outbox entry).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import connections, models, router
from django.db.models.signals import post_save, pre_save
from django.db.models.sql import InsertQuery

Value: TypeAlias = int | str
Argument: TypeAlias = Value | Sequence[Value]

#: Stand-ins for int arguments count down from here: inside every integer field's range
#: (Django answers a lookup beyond its field's range, a negative number for a positive
#: field, without asking the database: the statement would be compiled as "nothing"), and
#: unlike any value a build writes itself. An argument has ``_PER_ARGUMENT`` of them (a
#: list argument one fewer values: a longer list is read as Django reads it).
_INT_TOP = 32767
_PER_ARGUMENT = 100
_ARGUMENTS = 17
_INT_RANGE = (-(2**63), 2**63 - 1)

_threads = threading.local()

M = TypeVar("M", bound=models.Model)


@dataclass
class _Statement:
    queryset: models.QuerySet[Any]
    compiler: Any
    sql: str
    #: For each parameter: ``(argument, element)`` (element -1: a scalar argument), or None
    #: for a value of the build's own.
    slots: list[tuple[int, int] | None]
    constants: list[Any]
    params: list[Any] = field(default_factory=list)
    plain: bool = False


def _stand_in(argument: int, element: int, sample: Value) -> Value:
    if isinstance(sample, str):
        return f"\x1fcompiled {argument}.{element}\x1f"
    return _INT_TOP - argument * _PER_ARGUMENT - (element + 1)


def _stand_ins(args: Sequence[Argument]) -> tuple[list[Argument], dict[Any, tuple[int, int]]]:
    built: list[Argument] = []
    where: dict[Any, tuple[int, int]] = {}
    for i, arg in enumerate(args):
        if isinstance(arg, (int, str)):
            value = _stand_in(i, -1, arg)
            where[value] = (i, -1)
            built.append(value)
        else:
            values = [_stand_in(i, j, v) for j, v in enumerate(arg)]
            where.update({v: (i, j) for j, v in enumerate(values)})
            built.append(values)
    return built, where


def _compile(build: Callable[..., models.QuerySet[Any]], args: Sequence[Argument]) -> _Statement:
    stand_ins, where = _stand_ins(args)
    queryset: Any = build(*stand_ins)  # Django's private attributes below: untyped
    if queryset._known_related_objects:
        # A related manager's queryset holds the object it was read from: a stand-in's.
        raise ValueError("a build reads from a model's manager, not a related one")
    compiler = queryset.query.get_compiler(using=queryset.db)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:  # Django answers it without asking: let it, each time
        return _Statement(queryset, compiler, "", [], [], plain=True)
    slots = [
        where.get(p) if isinstance(p, (int, str)) and not isinstance(p, bool) else None
        for p in params
    ]
    missing = set(where.values()) - {s for s in slots if s is not None}
    if missing:
        raise ValueError(f"the build left arguments out of its statement: {sorted(missing)}")
    if any(str(value) in sql for value in where if isinstance(value, int)):
        raise ValueError("the build wrote an argument into the statement's text")
    statement = _Statement(queryset, compiler, sql, slots, list(params))
    # The compiler answers the statement with this call's values: Django's iteration asks
    # it for its SQL, runs it, and reads the columns it noted when it compiled.
    compiler.as_sql = lambda *_, **__: (statement.sql, statement.params)
    compiler.get_converters = _kept_converters(compiler.get_converters)
    queryset.query.get_compiler = lambda *_, **__: compiler
    return statement


def _kept_converters(get_converters: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The compiler's ``get_converters``, answered once per list of columns: Django asks
    it on every run for each column of the statement (about 30 at a player's home, a
    third of a millisecond a read), and a compiled statement's columns never change (the
    compiler keeps them, so their ids stay theirs)."""
    kept: dict[tuple[int, ...], Any] = {}

    def converters(expressions: Any) -> Any:
        key = tuple(map(id, expressions))
        found = kept.get(key)
        if found is None:
            found = kept[key] = get_converters(expressions)
        return found

    return converters


def _fits(args: Sequence[Argument]) -> bool:
    """Whether the arguments can stand in a compiled statement: few enough of them, short
    enough lists, ints a database takes."""
    if len(args) > _ARGUMENTS or any(
        not isinstance(a, (int, str)) and len(a) >= _PER_ARGUMENT for a in args
    ):
        return False
    low, high = _INT_RANGE
    for arg in args:
        for value in [arg] if isinstance(arg, (int, str)) else arg:
            if isinstance(value, bool) or (isinstance(value, int) and not low <= value <= high):
                return False
    return True


def _kind(value: Value) -> str:
    return "i" if isinstance(value, int) else "s"


def rows(name: str, build: Callable[..., models.QuerySet[Any]], *args: Argument) -> list[Any]:
    """``list(build(*args))``, the queryset built and compiled once per thread under
    ``name`` (and the lengths of the list arguments) and then only run."""
    if not _fits(args):  # read as Django reads it
        return list(build(*args))
    # An argument's kind is part of the statement's shape: a text's stand-in is compiled
    # as a text (a field that takes numbers refuses it), a number's as a number.
    shape = tuple(
        _kind(a) if isinstance(a, (int, str)) else (len(a), *map(_kind, a[:1])) for a in args
    )
    cache: dict[tuple[Any, ...], _Statement] = _threads.__dict__.setdefault("statements", {})
    key = (name, shape)
    statement = cache.get(key)
    if statement is None or statement.compiler.connection is not connections[statement.queryset.db]:
        statement = cache[key] = _compile(build, args)
    if statement.plain:
        return list(build(*args))
    statement.params = [
        constant if slot is None else (args[slot[0]] if slot[1] < 0 else args[slot[0]][slot[1]])  # type: ignore[index]
        for slot, constant in zip(statement.slots, statement.constants, strict=True)
    ]
    source: Any = statement.queryset
    run = source.__class__(model=source.model, query=source.query, using=source._db)
    run._prefetch_related_lookups = source._prefetch_related_lookups
    run._iterable_class = source._iterable_class
    run._fields = source._fields
    run._known_related_objects = source._known_related_objects
    return list(run)


# --- inserts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Insert:
    sql: str  # its values in the order of ``_insert_fields``
    returning: list[models.Field[Any, Any]]


def _insert_fields(obj: models.Model, with_pk: bool) -> list[models.Field[Any, Any]]:
    """The columns Django's ``save`` inserts: the model's own, the id only when given."""
    meta = obj._meta
    return [f for f in meta.local_concrete_fields if with_pk or f is not meta.auto_field]


def _insert_statement(obj: models.Model, alias: str, with_pk: bool) -> _Insert | None:
    """The INSERT of ``obj``'s row, written by Django's compiler from an object whose values
    are all plain (an expression would be written into the statement's text)."""
    meta = obj._meta
    connection = connections[alias]
    if meta.parents or not connection.features.can_return_columns_from_insert:
        return None
    fields = _insert_fields(obj, with_pk)
    returning = list(meta.db_returning_fields)
    query = InsertQuery(type(obj))
    query.insert_values(fields, [obj])
    compiler = query.get_compiler(using=alias)
    compiler.returning_fields = returning
    ((sql, params),) = compiler.as_sql()
    if len(params) != len(fields):  # a field with a placeholder of its own: Django's way
        return None
    return _Insert(sql, returning)


def insert(obj: M) -> M:
    """``obj.save(force_insert=True)`` for a new row, its INSERT written once per model,
    database and thread and then only run: Django builds and compiles an insert anew for
    each row (0.15 ms of the 0.4 ms of a row's insert). The values are what Django would
    write (each field's ``pre_save``, ``auto_now_add`` included, and its prepared value).
    Saved as Django saves it (``save(force_insert=True)``) for what this does not cover:
    a model some receiver watches (``pre_save``, ``post_save``), a child of another
    model, a value that is an expression, a database that cannot return the new id."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    if pre_save.has_listeners(model) or post_save.has_listeners(model):
        obj.save(force_insert=True, using=alias)
        return obj
    connection = connections[alias]
    with_pk = obj.pk is not None
    fields = _insert_fields(obj, with_pk)
    raw = [f.pre_save(obj, True) for f in fields]
    if any(hasattr(value, "resolve_expression") for value in raw):
        # Before the statement is built: built from this object, it would keep the
        # expression's SQL for every later row of the model.
        obj.save(force_insert=True, using=alias)
        return obj
    cache: dict[tuple[Any, ...], _Insert | None] = _threads.__dict__.setdefault("inserts", {})
    key = (model, alias, with_pk, id(connection))
    if key not in cache:
        cache[key] = _insert_statement(obj, alias, with_pk)
    statement = cache[key]
    if statement is None:
        obj.save(force_insert=True, using=alias)
        return obj
    params = [f.get_db_prep_save(v, connection) for f, v in zip(fields, raw, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        returned = cursor.fetchone()
    for column, value in zip(statement.returning, returned, strict=True):
        for converter in column.get_db_converters(connection):
            value = converter(value, column, connection)
        setattr(obj, column.attname, value)
    obj._state.adding = False
    obj._state.db = alias
    return obj
