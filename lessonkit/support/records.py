"""Records: immutable tuples with named, typed fields, declared as typing.NamedTuple declares them.

    class Point(Record):
        x: float
        y: float = 0.0          # a default; fields with one come last

    Point(1.0), Point(x=1.0, y=2.0), p.x, p._replace(y=3.0), p._asdict(), Point._fields, pickle, ==, hash

An instance is a tuple of its field values, as a NamedTuple's is: the same repr, equality, hashing, pickling,
`_replace`, `_asdict`, `_make`, `_fields` and `_field_defaults`.

Why not typing.NamedTuple itself: on Python 3.11, defining one costs ≈0.35 ms (collections.namedtuple `eval`s a
`__new__` for it, and typing compiles each field's annotation, a string under `from __future__ import
annotations`). The engine defines about seventy, so a rebuild after an edited paragraph spent ≈25 ms of its time
defining records. A Record class is made without compiling anything: its fields are read from the class's
annotations, and one `__new__` serves every record.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterable

try:
    from _collections import _tuplegetter        # what collections.namedtuple uses for its fields: C, fast
except ImportError:                              # (another Python): the same, a little slower
    def _tuplegetter(index: int, doc: str) -> property:
        return property(itemgetter(index), doc=doc)


class RecordType(type):
    """Makes a Record class: its annotated names are its fields, in order, a value given in the class body is that
    field's default."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> RecordType:
        if not any(isinstance(base, RecordType) for base in bases):     # Record itself
            return super().__new__(mcs, name, bases, namespace)
        if any(getattr(base, "_fields", ()) for base in bases):
            raise TypeError(f"{name}: a record's fields are declared once, a subclass of {bases[0].__name__} "
                            f"cannot add or inherit them")
        fields = tuple(namespace.get("__annotations__", {}))
        defaults = {field: namespace.pop(field) for field in fields if field in namespace}
        if list(defaults) != list(fields[len(fields) - len(defaults):]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        for index, field in enumerate(fields):
            if field.startswith("_"):
                raise TypeError(f"{name}: a field's name cannot start with an underscore: {field!r}")
            namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
        namespace.update(__slots__=(), _fields=fields, _field_defaults=defaults, __match_args__=fields)
        return super().__new__(mcs, name, bases, namespace)


class Record(tuple, metaclass=RecordType):
    """The base of every record (see the module's docstring)."""
    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _field_defaults: dict[str, Any] = {}

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) != len(cls._fields):
            args = cls._complete(args, kwargs)
        return tuple.__new__(cls, args)

    @classmethod
    def _complete(cls, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """Every field's value, in order: those given by position, then by name, then the defaults."""
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
        values = list(args)
        for field in fields[len(args):]:
            if field in kwargs:
                values.append(kwargs.pop(field))
            elif field in cls._field_defaults:
                values.append(cls._field_defaults[field])
            else:
                raise TypeError(f"{cls.__name__}() missing argument: {field!r}")
        for name in kwargs:
            raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}" if name in fields
                            else f"{cls.__name__}() got an unexpected keyword argument {name!r}")
        return tuple(values)

    @classmethod
    def _make(cls, iterable: Iterable) -> Any:
        values = tuple(iterable)
        if len(values) != len(cls._fields):
            raise TypeError(f"{cls.__name__}._make: expected {len(cls._fields)} values, got {len(values)}")
        return tuple.__new__(cls, values)

    def _replace(self, **changes: Any) -> Any:
        values = tuple(changes.pop(field, value) for field, value in zip(self._fields, self))
        if changes:
            raise TypeError(f"{type(self).__name__}._replace: no such fields: {', '.join(changes)}")
        return tuple.__new__(type(self), values)

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self._fields, self))})"

    def __getnewargs__(self) -> tuple:
        return tuple(self)
