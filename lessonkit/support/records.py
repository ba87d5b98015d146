"""Records: classes with named, typed fields, declared as typing.NamedTuple and dataclasses declare them.

    class Point(Record):
        x: float
        y: float = 0.0          # a default; fields with one come last

    Point(1.0), Point(x=1.0, y=2.0), p.x, p._replace(y=3.0), p._asdict(), Point._fields, pickle, ==, hash

An instance is a tuple of its field values, as a NamedTuple's is: the same repr, equality, hashing, pickling,
`_replace`, `_asdict`, `_make`, `_fields` and `_field_defaults`.

What is filled in as a stage goes is a Mutable, as a `@dataclass(eq=False)` is: its fields are attributes set by
`__init__` (positional or by name, then defaults; `fresh(list)` gives each instance its own, as
`field(default_factory=list)` does), then `__post_init__` runs if the class has one; `_replace` is
dataclasses.replace; two are equal only when they are the same object.

    class Tally(Mutable):
        name: str
        counts: dict[str, int] = fresh(dict)

Why not typing.NamedTuple and dataclasses themselves: every build is a fresh process, and on Python 3.11 defining
a NamedTuple costs ≈0.35 ms (collections.namedtuple `eval`s a `__new__` for it, and typing compiles each field's
annotation, a string under `from __future__ import annotations`) and a dataclass ≈0.6 ms (it `exec`s an `__init__`
and a `__repr__`). A rebuild after an edited paragraph defined about seventy records (≈17 ms of it, by an A/B of
interleaved runs) and sixteen dataclasses. These classes are made without compiling anything: their fields are read
from the class's annotations, and one `__new__` (one `__init__`) serves them all.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Iterable

try:
    from _collections import _tuplegetter        # what collections.namedtuple uses for its fields: C, fast
except ImportError:                              # (another Python): the same, a little slower
    def _tuplegetter(index: int, doc: str) -> property:
        return property(itemgetter(index), doc=doc)


class Fresh(tuple):
    """A default made anew for each instance of a Mutable: `fresh(list)`."""
    __slots__ = ()


def fresh(make: Callable[[], Any]) -> Any:
    """A Mutable field's default, `make()` for each instance (dataclasses' `field(default_factory=make)`)."""
    return Fresh((make,))


def _fields(name: str, namespace: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """A class body's fields, in order, and the defaults given for them (those come last)."""
    fields = tuple(namespace.get("__annotations__", {}))
    defaults = {field: namespace[field] for field in fields if field in namespace}
    if list(defaults) != list(fields[len(fields) - len(defaults):]):
        raise TypeError(f"{name}: a field without a default follows one with a default")
    for field in fields:
        if isinstance(defaults.get(field), (list, dict, set)):
            raise TypeError(f"{name}.{field}: a list, dict or set default would be shared by every instance; "
                            f"write fresh({type(defaults[field]).__name__})")
    return fields, defaults


def _complete(cls: type, args: tuple, kwargs: dict[str, Any]) -> tuple:
    """Every field's value, in order: those given by position, then by name, then the defaults."""
    fields, defaults = cls._fields, cls._field_defaults
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
    values = list(args)
    for field in fields[len(args):]:
        if field in kwargs:
            values.append(kwargs.pop(field))
        elif field in defaults:
            default = defaults[field]
            values.append(default[0]() if type(default) is Fresh else default)
        else:
            raise TypeError(f"{cls.__name__}() missing argument: {field!r}")
    for name in kwargs:
        raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}" if name in fields
                        else f"{cls.__name__}() got an unexpected keyword argument {name!r}")
    return tuple(values)


class RecordType(type):
    """Makes a Record class: its annotated names are its fields, in order, a value given in the class body is that
    field's default."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> RecordType:
        if not any(isinstance(base, RecordType) for base in bases):     # Record itself
            return super().__new__(mcs, name, bases, namespace)
        if any(getattr(base, "_fields", ()) for base in bases):
            raise TypeError(f"{name}: a record's fields are declared once, a subclass of {bases[0].__name__} "
                            f"cannot add or inherit them")
        fields, defaults = _fields(name, namespace)
        if any(type(default) is Fresh for default in defaults.values()):
            raise TypeError(f"{name}: a record's default is one value, not fresh(…)")
        for index, field in enumerate(fields):
            if field.startswith("_"):    # (namedtuple's own names start with one)
                raise TypeError(f"{name}: a record field's name cannot start with an underscore: {field!r}")
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
            args = _complete(cls, args, kwargs)
        return tuple.__new__(cls, args)

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


class Mutable:
    """The base of every class whose fields change after it is made (see the module's docstring)."""
    _fields: tuple[str, ...] = ()
    _field_defaults: dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own, defaults = _fields(cls.__name__, dict(cls.__dict__))
        if cls._fields and own:
            raise TypeError(f"{cls.__name__}: a class's fields are declared once, not added by a subclass")
        if own:
            cls._fields, cls._field_defaults = own, defaults
            for field in own:   # the defaults live in _field_defaults: a function given as one stays a function
                if field in cls.__dict__:
                    delattr(cls, field)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        for field, value in zip(self._fields, _complete(type(self), args, kwargs)):
            setattr(self, field, value)
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def _replace(self, **changes: Any) -> Any:
        """A new instance with these fields changed, made by `__init__` (dataclasses.replace)."""
        return type(self)(**{**{field: getattr(self, field) for field in self._fields}, **changes})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f, None)!r}' for f in self._fields)})"
