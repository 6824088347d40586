"""A quick yes-or-no check of data against a JSON Schema, for data read on every command (a state snapshot).

``jsonschema`` walks a 12-player snapshot in 15 to 30 ms; this compiles the schema once into nested Python
functions that answer in a few.  It answers only whether the data is valid: when it says no, the caller asks
``jsonschema`` for the error to report (and trusts it), so the message is jsonschema's, and a keyword this
module does not know makes ``compile_schema`` raise ``Unsupported`` (the caller then uses jsonschema alone).
Integers are Python ints (not bools, not 1.0), as pbem's validators count them.  Tests compare the two on
damaged snapshots.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable
from urllib.parse import urljoin

Check = Callable[[Any], bool]

# keywords that say nothing about validity
_NOTES = {"$schema", "$id", "$defs", "title", "description", "x-message", "examples", "default", "$comment"}


class Unsupported(Exception):
    """The schema uses a keyword this module does not check."""


def _is_number(v: Any) -> bool:
    return (type(v) is int or type(v) is float)


_TYPES: dict[str, Check] = {
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,
    "number": _is_number,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
}


def _same(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema means it: true is not 1."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _unique(items: list) -> bool:
    try:
        if all(type(x) is str for x in items):
            return len(set(items)) == len(items)
    except TypeError:
        pass
    seen = [json.dumps(x, sort_keys=True) for x in items]
    return len(set(seen)) == len(seen)


def compile_schema(schema: dict[str, Any], others: tuple[dict[str, Any], ...] = ()) -> Check:
    """A function telling whether data is valid against ``schema`` (draft 2020-12, the keywords pbem's schemas
    use); ``others``: schemas its ``$ref``s name by their ``$id``."""
    roots = {s["$id"]: s for s in (schema, *others)}
    compiled: dict[tuple[str, str], list[Check]] = {}

    def resolve(ref: str, base: str) -> tuple[Any, str, str]:
        where, _, pointer = ref.partition("#")
        uri = urljoin(base, where) if where else base
        if uri not in roots:
            raise Unsupported(f"$ref {ref}")
        node: Any = roots[uri]
        for part in (p for p in pointer.split("/") if p):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node, uri, pointer

    def ref_check(ref: str, base: str) -> Check:
        node, uri, pointer = resolve(ref, base)
        key = (uri, pointer)
        if key not in compiled:
            cell: list[Check] = []
            compiled[key] = cell
            cell.append(comp(node, uri))
        cell = compiled[key]
        return lambda v: cell[0](v)

    def comp(node: Any, base: str) -> Check:
        if node is True:
            return lambda v: True
        if node is False:
            return lambda v: False
        if not isinstance(node, dict):
            raise Unsupported(repr(node)[:40])
        checks: list[Check] = []
        unknown = set(node) - _NOTES - _KEYWORDS
        if unknown:
            raise Unsupported(", ".join(sorted(unknown)))
        if "$ref" in node:
            checks.append(ref_check(node["$ref"], base))
        if "type" in node:
            names = [node["type"]] if isinstance(node["type"], str) else node["type"]
            tests = tuple(_TYPES[n] for n in names)
            checks.append(tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests)))
        if "const" in node:
            const = node["const"]
            checks.append(lambda v: _same(v, const))
        if "enum" in node:
            allowed = node["enum"]
            if all(type(x) is str for x in allowed):
                names = frozenset(allowed)
                checks.append(lambda v: type(v) is str and v in names)
            else:
                checks.append(lambda v: any(_same(v, x) for x in allowed))
        if "minimum" in node:
            low = node["minimum"]
            checks.append(lambda v: not _is_number(v) or v >= low)
        if "maximum" in node:
            high = node["maximum"]
            checks.append(lambda v: not _is_number(v) or v <= high)
        if "minLength" in node:
            n = node["minLength"]
            checks.append(lambda v: type(v) is not str or len(v) >= n)
        if "maxLength" in node:
            n2 = node["maxLength"]
            checks.append(lambda v: type(v) is not str or len(v) <= n2)
        if "pattern" in node:
            search = re.compile(node["pattern"]).search
            checks.append(lambda v: type(v) is not str or search(v) is not None)
        checks += _object_checks(node, base)
        checks += _array_checks(node, base)
        if "if" in node:
            test = comp(node["if"], base)
            then = comp(node.get("then", True), base)
            other = comp(node.get("else", True), base)
            checks.append(lambda v: then(v) if test(v) else other(v))
        if not checks:
            return lambda v: True
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)

    def _object_checks(node: dict, base: str) -> list[Check]:
        out: list[Check] = []
        if "required" in node:
            need = tuple(node["required"])
            out.append(lambda v: type(v) is not dict or all(k in v for k in need))
        if "minProperties" in node:
            n = node["minProperties"]
            out.append(lambda v: type(v) is not dict or len(v) >= n)
        if "maxProperties" in node:
            n2 = node["maxProperties"]
            out.append(lambda v: type(v) is not dict or len(v) <= n2)
        if "propertyNames" in node:
            names = comp(node["propertyNames"], base)
            out.append(lambda v: type(v) is not dict or all(names(k) for k in v))
        props = {k: comp(s, base) for k, s in node.get("properties", {}).items()}
        extra = comp(node["additionalProperties"], base) if "additionalProperties" in node else None
        if props or extra is not None:
            def members(v: Any) -> bool:
                if type(v) is not dict:
                    return True
                for k, item in v.items():
                    check = props.get(k)
                    if check is not None:
                        if not check(item):
                            return False
                    elif extra is not None and not extra(item):
                        return False
                return True
            out.append(members)
        return out

    def _array_checks(node: dict, base: str) -> list[Check]:
        out: list[Check] = []
        if "minItems" in node:
            n = node["minItems"]
            out.append(lambda v: type(v) is not list or len(v) >= n)
        if "maxItems" in node:
            n2 = node["maxItems"]
            out.append(lambda v: type(v) is not list or len(v) <= n2)
        if node.get("uniqueItems"):
            out.append(lambda v: type(v) is not list or _unique(v))
        if "items" in node:
            each = comp(node["items"], base)
            out.append(lambda v: type(v) is not list or all(each(x) for x in v))
        return out

    return comp(schema, schema["$id"])


_KEYWORDS = {"$ref", "type", "const", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "required",
             "minProperties", "maxProperties", "propertyNames", "properties", "additionalProperties", "minItems",
             "maxItems", "uniqueItems", "items", "if", "then", "else"}
