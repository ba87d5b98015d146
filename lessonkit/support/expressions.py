"""Values as expressions: `{{ results[-1]:.4f }}`, `{{ w.shape[0] }}`, `{{ len(trace) }}`, `{{ x0 * 2 }}` — a small,
safe language over a lesson's values, evaluated at build time.

Not `eval`: the text is parsed by Python's own parser and only these nodes are walked — names (the lesson's values),
number and text literals, indexing and slicing, `.key` into a mapping and a few attributes of plain data (an array's
`shape`, `ndim`, `size`, `T`), arithmetic (`+ - * / // % **`, unary `-` and `+`), comparisons, tuples and lists,
and calls of the functions in FUNCTIONS. Anything else is refused with a message naming the expression. Numbers are
Python's (`x * 0.9`, `1e-4`, `.5 * x`, `-1`). The older dotted form stays valid: `probs.0` is `probs[0]` and
`a.b.1.2` is `a.b[1][2]` — read on Python's tokens, where `.0` written right after a name, `]` or `)` can only be an
index (`0.9` is one number); `probs .0` or `probs.1e3` could be either and is refused, naming `probs[0]`. `ln.xhat`
is `ln["xhat"]` when `ln` is a mapping.
"""
from __future__ import annotations

import ast
import io
import itertools
import keyword
import math
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from token import NAME as NAME_TOKEN, NUMBER
from typing import TYPE_CHECKING, Any

from .messages import Message, msg
from .suggest import did_you_mean

if TYPE_CHECKING:
    from tokenize import TokenInfo

FUNCTIONS = {"len": len, "min": min, "max": max, "abs": abs, "round": round, "sum": sum, "int": int,
             "float": float, "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "log10": math.log10}
ATTRIBUTES = ("shape", "ndim", "size", "T", "real", "imag")   # of arrays and numbers: data, never behaviour
OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
             ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
             ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Eq: operator.eq, ast.NotEq: operator.ne,
             ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
MAX_POWER = 10_000          # `2 ** 10**9` would take the build's memory
NAME = re.compile(r"[A-Za-z_]\w*")


class ExpressionError(ValueError):
    """What is wrong with an expression, as a message (the caller names the file and line)."""

    def __init__(self, message: Message):
        super().__init__(message)
        self.message = message


class AmbiguousIndex(ExpressionError):
    """`probs .0`, `probs.1e3`: an item of `probs` or a number after it (_with_indexes)."""


def split_spec(text: str) -> tuple[str, str | None]:
    """`results[1:3]:.2f` → (`results[1:3]`, `.2f`): the format spec follows the last colon outside brackets."""
    depth, cut = 0, None
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == ":" and depth == 0:
            cut = i
    if cut is None:
        return text.strip(), None
    return text[:cut].strip(), text[cut + 1:].strip() or None


def is_plain_name(text: str) -> bool:
    return NAME.fullmatch(text) is not None


def names_in(text: str) -> list[str]:
    """The value names an expression reads (for a did-you-mean, and for what a page depends on)."""
    try:
        return _names_read(parsed(text))
    except ExpressionError:
        return []


def _names_read(tree: ast.AST) -> list[str]:
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    return list(dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called))


def mentions_a_value(text: str) -> bool:
    """Whether `text` (what stands between `{{` and `}}`; a format spec is left out) is an expression that reads a
    value: a name other than FUNCTIONS — `(a - b) / c` does, `2`, `1 + 2`, `len(3)` and `x y` do not. It tells a
    value from TeX's double braces (`x^{{2}}`). An ambiguous `probs .0` counts: evaluating it says how to write it."""
    expression, _ = split_spec(text)
    try:
        tree = parsed(expression)
    except AmbiguousIndex:
        return True
    except ExpressionError:
        return False
    return any(name not in FUNCTIONS for name in _names_read(tree))


def evaluate(text: str, values: Mapping[str, Any]) -> Any:
    """The value of `text` over `values`; ExpressionError says what is wrong."""
    return _Evaluator(text.strip(), values).visit(parsed(text).body)


def parsed(text: str) -> ast.Expression:
    """`text` as Python parses it, the older `probs.0` read as `probs[0]`; ExpressionError when it is none."""
    text = text.strip()
    try:
        return ast.parse(_with_indexes(text), mode="eval")
    except SyntaxError:
        raise ExpressionError(msg("`{expression}` is not an expression", expression=text)) from None


def _with_indexes(text: str) -> str:
    """`probs.0` → `probs[0]`, `a.b.1.2` → `a.b[1][2]`. Python reads `.0` there as the number 0.0 (`probs.0` is
    NAME `probs`, NUMBER `.0`), so the number is an index only written right after a name, `]`, `)` or another such
    index; `0.9` is one number and stays one, and so does a string's `'a.0'`."""
    if not any(char == "." and text[k + 1:k + 2].isdigit() for k, char in enumerate(text)):
        return text  # no `.0` to read: the tokenizer (its patterns compiled on first use) only where one may be
    import tokenize

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text  # unbalanced brackets, a stray character: ast.parse says it is no expression
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))

    def offset(position: tuple[int, int]) -> int:  # a token's (line, column) as an index into text
        return line_starts[position[0] - 1] + position[1]

    pieces, done, previous, previous_is_index = [], 0, None, False
    for token in tokens:
        is_index = _is_dotted_index(token, previous, previous_is_index)
        if is_index is None:
            raise _ambiguous(text, text[:offset(previous.end)], token.string)
        if is_index:
            pieces += [text[done:offset(token.start)], f"[{int(token.string[1:])}]"]
            done = offset(token.end)
        previous, previous_is_index = token, is_index
    return "".join(pieces) + text[done:]


def _is_dotted_index(token: TokenInfo, previous: TokenInfo | None,
                     previous_is_index: bool) -> bool | None:
    """True: `.0` after something indexable, with nothing between; False: a number or no number; None: either."""
    if token.type != NUMBER or not token.string.startswith(".") or previous is None:
        return False
    after_a_value = previous_is_index or previous.string in ("]", ")") or \
        (previous.type == NAME_TOKEN and not keyword.iskeyword(previous.string))
    if not after_a_value:
        return False  # `x * .5`, `1 if c else .5`
    return True if previous.end == token.start and token.string[1:].isdigit() else None


def _ambiguous(text: str, before: str, number: str) -> AmbiguousIndex:
    index, before = number[1:] if number[1:].isdigit() else "…", before.strip()
    return AmbiguousIndex(msg("`{expression}`: {message}", expression=text, message=msg(
        "`{number}` after `{before}` is ambiguous: write `{item}` for an item, or an operator before a number",
        number=number, before=before, item=f"{before}[{index}]")))


class _Evaluator:
    def __init__(self, text: str, values: Mapping[str, Any]):
        self.text, self.values = text, values

    def fail(self, message: Message) -> ExpressionError:
        return ExpressionError(msg("`{expression}`: {message}", expression=self.text, message=message))

    def visit(self, node: ast.AST) -> Any:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            raise self.fail(msg("{what} is not allowed here (names, numbers, [ ], .key, arithmetic and {functions})",
                                what=_described(node), functions=", ".join(FUNCTIONS)))
        return method(node)

    def visit_Name(self, node: ast.Name) -> Any:
        if node.id not in self.values:
            raise self.fail(msg("`{name}` is no value of this lesson{hint}", name=node.id,
                                hint=did_you_mean(node.id, self.values)))
        return self.values[node.id]

    def visit_Constant(self, node: ast.Constant) -> Any:
        if isinstance(node.value, (int, float, complex, str)) and not isinstance(node.value, bool):
            return node.value
        raise self.fail(msg("{what} is not allowed here (names, numbers, [ ], .key, arithmetic and {functions})",
                            what=repr(node.value), functions=", ".join(FUNCTIONS)))

    def visit_Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node: ast.List) -> list:
        return [self.visit(e) for e in node.elts]

    def visit_Slice(self, node: ast.Slice) -> slice:
        return slice(*(None if part is None else self.visit(part) for part in (node.lower, node.upper, node.step)))

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        container, index = self.visit(node.value), self.visit(node.slice)
        try:
            return container[index]
        except (IndexError, KeyError) as exc:
            raise self.fail(_missing_item(node.value, container, index, exc)) from None
        except TypeError:
            raise self.fail(msg("`{what}` is {kind}: it has no items", what=ast.unparse(node.value),
                                kind=_kind(container))) from None

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        owner = self.visit(node.value)
        if isinstance(owner, Mapping):
            if node.attr in owner:
                return owner[node.attr]
            raise self.fail(msg("`{what}` has no key `{key}` (keys: {keys})", what=ast.unparse(node.value),
                                key=node.attr, keys=", ".join(map(str, list(owner)[:12]))))
        if node.attr in ATTRIBUTES and hasattr(owner, node.attr):
            return getattr(owner, node.attr)
        raise self.fail(msg("`.{name}` is not allowed here: a key of a mapping, or one of {attributes}",
                            name=node.attr, attributes=", ".join(ATTRIBUTES)))

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        left, right = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, ast.Pow) and isinstance(right, (int, float)) and abs(right) > MAX_POWER:
            raise self.fail(msg("an exponent above {n}", n=MAX_POWER))
        return self.apply(node.op, left, right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        return self.apply(node.op, self.visit(node.operand))

    def visit_Compare(self, node: ast.Compare) -> Any:
        left, result = self.visit(node.left), True
        for op, right in zip(node.ops, node.comparators):
            right = self.visit(right)
            result = result and self.apply(op, left, right)
            left = right
        return result

    def apply(self, op: ast.AST, *operands: Any) -> Any:
        if type(op) not in OPERATORS:
            raise self.fail(msg("{what} is not allowed here (names, numbers, [ ], .key, arithmetic and {functions})",
                                what=_described(op), functions=", ".join(FUNCTIONS)))
        try:
            return OPERATORS[type(op)](*operands)
        except ZeroDivisionError:
            raise self.fail(msg("division by zero")) from None
        except (TypeError, ValueError, OverflowError) as exc:
            raise self.fail(msg("{reason}", reason=str(exc))) from None

    def visit_Call(self, node: ast.Call) -> Any:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in FUNCTIONS or node.keywords:
            shown = ast.unparse(node.func)
            raise self.fail(msg("`{name}(…)` cannot be called here: only {functions}", name=shown,
                                functions=", ".join(FUNCTIONS)))
        arguments = [self.visit(a) for a in node.args]
        try:
            return FUNCTIONS[name](*arguments)
        except (TypeError, ValueError, OverflowError) as exc:
            raise self.fail(msg("{name}(…): {reason}", name=name, reason=str(exc))) from None


def _missing_item(owner: ast.AST, container: Any, index: Any, exc: Exception) -> Message:
    what = ast.unparse(owner)
    keys = _keys(container) if isinstance(container, Mapping) or isinstance(exc, KeyError) else None
    if keys is not None:
        return msg("`{what}` has no key {key} (keys: {keys})", what=what, key=repr(index),
                   keys=", ".join(map(str, itertools.islice(keys, 12))))
    size = len(container) if isinstance(container, Sequence) or hasattr(container, "__len__") else None
    return msg("index {index} is out of range: `{what}` has {n} item(s)", index=index, what=what, n=size) \
        if size is not None else msg("{reason}", reason=str(exc))


def _keys(container: Any) -> Iterable | None:
    """A mapping's keys; a pandas Series' labels and a DataFrame's columns (their `keys()`, looked up by `[…]`)."""
    if isinstance(container, Mapping):
        return container
    keys = getattr(container, "keys", None)
    return keys() if callable(keys) else None


def _kind(value: Any) -> Message:
    return msg("a number ({value})", value=value) if isinstance(value, (int, float)) else \
        msg("a {type}", type=type(value).__name__)


def _described(node: ast.AST) -> str:
    try:
        return f"`{ast.unparse(node)}`"
    except Exception:  # an operator node has no source of its own
        return type(node).__name__
