"""Checked readers shared by every layer: strict JSON hooks and the dotted reader of a TOML
data file's fields. Each refuses what it cannot take with one short line, never a traceback.

>>> import json
>>> json.loads('{"a": 1}', **STRICT_JSON)
{'a': 1}
>>> json.loads('{"a": 1, "a": 2}', **STRICT_JSON)
Traceback (most recent call last):
ValueError: duplicate key 'a'
>>> toml_field({"board": {"size": 8}}, "board.toml", "board.size", int)
8
"""

from __future__ import annotations

from .errors import DataError, shown


def no_duplicate_keys(pairs: list) -> dict:
    """A JSON object's pairs as a dict: an ``object_pairs_hook`` that refuses a key given twice.

    Parameters
    ----------
    pairs : list of (str, value)

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        A key given twice, named.
    """
    doc = {}
    for key, value in pairs:
        if key in doc:
            raise ValueError(f"duplicate key {shown(key)}")
        doc[key] = value
    return doc


def no_constant(name: str):
    """A ``parse_constant`` that refuses ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON).

    Parameters
    ----------
    name : str

    Raises
    ------
    ValueError
        Always, naming the constant.
    """
    raise ValueError(f"{name} is not JSON")


STRICT_JSON = {"object_pairs_hook": no_duplicate_keys, "parse_constant": no_constant}
"""The hooks of a strict JSON reader (``json.loads(text, **STRICT_JSON)``, or with
:func:`taolong_lab.rules.data.json_decoder`): no key twice, no NaN or infinity."""


def toml_field(doc: dict, file: str, dotted: str, kind: type = object):
    """The value at ``dotted`` (``"board.size"``) in a TOML document, of type ``kind``.

    Parameters
    ----------
    doc : dict
        The document as ``tomllib`` read it.
    file : str
        Its name, for the error.
    dotted : str
        The keys, joined by dots.
    kind : type
        The type wanted (``int`` excludes ``bool``; ``object``: any).

    Returns
    -------
    object

    Raises
    ------
    DataError
        The field is missing or of another type; names the file and the field.
    """
    node = doc
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise DataError(file, dotted, "missing")
        node = node[part]
    if (kind is int and isinstance(node, bool)) or not isinstance(node, kind):
        raise DataError(file, dotted, f"expected {kind.__name__}, got {shown(node)}")
    return node


__all__ = ["STRICT_JSON", "no_constant", "no_duplicate_keys", "shown", "toml_field"]
