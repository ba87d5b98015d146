"""support/records.py: a Record behaves as the typing.NamedTuple declared the same way (the oracle here), and is
made without compiling anything."""
import copy
import pickle
from typing import NamedTuple

import pytest

from lessonkit.support.records import Record


class Point(Record):
    """A point."""
    x: float
    y: float = 0.0
    label: str = ""

    def moved(self, dx: float) -> "Point":
        return self._replace(x=self.x + dx)


class PointNT(NamedTuple):
    x: float
    y: float = 0.0
    label: str = ""


class Empty(Record):
    pass


CALLS = [((1.5,), {}), ((1.5, 2), {}), ((1, 2, "a"), {}), ((), {"x": 1}), ((1,), {"label": "b"}),
         ((), {"label": "c", "x": 3, "y": 4})]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_made_read_and_shown_as_the_namedtuple(args, kwargs):
    p, q = Point(*args, **kwargs), PointNT(*args, **kwargs)
    assert tuple(p) == tuple(q) and p == q and hash(p) == hash(q)
    assert (p.x, p.y, p.label) == (q.x, q.y, q.label)
    assert repr(p) == repr(q).replace("PointNT", "Point")
    assert p._asdict() == q._asdict() and p._fields == q._fields == ("x", "y", "label")
    assert Point._field_defaults == PointNT._field_defaults == {"y": 0.0, "label": ""}
    assert p._replace(y=9) == q._replace(y=9) and type(p._replace(y=9)) is Point
    assert Point._make(q) == p and type(Point._make(q)) is Point
    assert Point.__match_args__ == PointNT.__match_args__


def test_immutable_without_a_dict_and_its_methods_and_docstring_kept():
    p = Point(1, 2)
    with pytest.raises(AttributeError):
        p.x = 3
    with pytest.raises(AttributeError):
        p.other = 3
    assert not hasattr(p, "__dict__")
    assert p.moved(2) == Point(3, 2) and Point.__doc__ == "A point."
    assert isinstance(p, tuple) and p[0] == 1 and p[-1] == "" and len(p) == 3
    x, y, label = p
    assert (x, y, label) == (1, 2, "")
    assert Empty() == () and Empty._fields == ()
    with pytest.raises(TypeError):
        p._replace(z=1)
    with pytest.raises(TypeError):
        Point._make([1])


def test_pickled_and_copied_as_itself():
    p = Point(1, [2, 3], "z")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(p, protocol))
        assert back == p and type(back) is Point
    assert copy.copy(p) == p and copy.deepcopy(p) == p and copy.deepcopy(p).y is not p.y


def test_match_by_position_and_keyword():
    match Point(1, 2):
        case Point(a, b, label=""):
            assert (a, b) == (1, 2)
        case _:
            pytest.fail("did not match")


def test_declarations_namedtuple_refuses_are_refused():
    with pytest.raises(TypeError):
        class Bad(Record):
            x: int = 0
            y: int
    with pytest.raises(TypeError):
        class Sub(Point):
            z: int
    with pytest.raises(TypeError):
        class Private(Record):
            _x: int


# ---- Mutable: as a @dataclass(eq=False) (the oracle) ----

from dataclasses import dataclass, field  # noqa: E402

from lessonkit.support.records import Mutable, fresh  # noqa: E402


def positive(n):
    return n > 0


class Tally(Mutable):
    name: str
    counts: dict = fresh(dict)
    _seen: list = fresh(list)
    check: object = positive             # a function as a default stays a function, not a method
    limit: int = 3

    def __post_init__(self):
        self.name = self.name.strip()


@dataclass(eq=False)
class TallyDC:
    name: str
    counts: dict = field(default_factory=dict)
    _seen: list = field(default_factory=list)
    check: object = positive
    limit: int = 3

    def __post_init__(self):
        self.name = self.name.strip()


MUTABLE_CALLS = [((" a ",), {}), (("a", {"x": 1}), {}), ((), {"name": "b", "limit": 5}), (("c",), {"_seen": [1]})]


@pytest.mark.parametrize("args, kwargs", MUTABLE_CALLS)
def test_a_mutable_is_made_as_the_dataclass(args, kwargs):
    m, d = Tally(*args, **kwargs), TallyDC(*args, **kwargs)
    assert vars(m) == vars(d)
    assert repr(m) == repr(d).replace("TallyDC", "Tally")
    assert m.check(1) is True and m.check(0) is False
    assert m._replace(limit=9).limit == 9 and vars(m._replace()) == vars(m)


WRONG = [("Point", (), {}), ("Point", (1, 2, 3, 4), {}), ("Point", (1,), {"x": 2}), ("Point", (1,), {"z": 2}),
         ("Tally", (), {}), ("Tally", ("a", {}, [], None, 1, 2), {}), ("Tally", ("a",), {"name": "b"}),
         ("Tally", ("a",), {"other": 1})]


@pytest.mark.parametrize("name, args, kwargs", WRONG)
def test_wrong_arguments_are_refused_as_namedtuple_and_dataclass_refuse_them(name, args, kwargs):
    ours, oracle = {"Point": (Point, PointNT), "Tally": (Tally, TallyDC)}[name]
    with pytest.raises(TypeError):
        oracle(*args, **kwargs)
    with pytest.raises(TypeError):
        ours(*args, **kwargs)


def test_each_mutable_has_its_own_fresh_defaults_and_equals_only_itself():
    a, b = Tally("a"), Tally("a")
    a.counts["x"] = 1
    a._seen.append(1)
    assert b.counts == {} and b._seen == [] and a != b and a == a and len({a, b}) == 2
    a.limit = 4                                          # its fields change
    assert a.limit == 4 and Tally("z").limit == 3


def test_a_shared_mutable_default_is_refused_as_dataclasses_refuse_it():
    with pytest.raises(ValueError):
        @dataclass
        class Shared:
            items: list = []
    with pytest.raises(TypeError):
        class SharedToo(Mutable):
            items: list = []
