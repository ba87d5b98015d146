"""The store's keys (support/cachekeys.py): a figure's inputs hashed faithfully, or refused."""
import hashlib

import numpy as np
import pytest

from lessonkit.support.cachekeys import Uncacheable, feed_value


def digest(value):
    h = hashlib.sha256()
    feed_value(h, value)
    return h.hexdigest()


def test_value_hash_sees_dtype_shape_and_content_but_not_dict_order():
    a = np.arange(6, dtype=np.int64)
    assert digest(a) == digest(np.arange(6, dtype=np.int64))
    assert digest(a) != digest(a.astype(np.int32))          # same numbers, other dtype
    assert digest(a) != digest(a.reshape(2, 3))              # same bytes, other shape
    assert digest(a.reshape(2, 3).T) != digest(a.reshape(3, 2))  # transposed view: other element order
    assert digest({"x": 1, "y": [1.0, 2.0]}) == digest({"y": [1.0, 2.0], "x": 1})
    assert digest([1, 2]) != digest((1, 2)) and digest(1) != digest(1.0) and digest(True) != digest(1)
    assert digest(0.1 + 0.2) != digest(0.3)


def test_unknown_objects_are_not_cached():
    with pytest.raises(Uncacheable):
        digest(object())
