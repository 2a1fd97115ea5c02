"""Loading a rule variant: reading a TOML rule file, checking every knob, building the `Variant`
(RULES.md §8).

A variant is data, never a code fork: one TOML file per variant in ``zipai_sim/rules/``
holds every knob of RULES.md §4–§8 in the sections ``[layout]`` (§2), ``[points]`` (§4,
``[small, big]`` 胡息 pairs), ``[win]`` (§6), ``[deal]`` (§6 instant wins, §8 second table),
``[play]`` (§5.3, §5.6 corners), ``[fanxing]`` (§7.3), ``[settle]`` (§7.1–§7.2) and
``[mingtang]`` (§7.4) — their schema is in ``sections``, the built `Variant` in ``ruleset``. A
user copies a file, changes knobs and loads it by path; unknown keys, missing keys, wrong types
and out-of-range values are `VariantError` naming the file and the key.

>>> v = load_variant("guangxi-81")
>>> v.win.threshold, v.settle.unit, v.points.ti, v.deal.santi
(15, 'duo', (9, 12), 3)
>>> from zipai_sim.game import params
>>> len(v.params) == params.N_PARAMS, v.params[params.THRESHOLD]
(True, 15)
>>> v.with_threshold(20).params[params.THRESHOLD]
20
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from zipai_sim.game.knobs import show as _show
from zipai_sim.game.ruleset import Variant
from zipai_sim.game.sections import VariantError

# Variant and VariantError (defined in ruleset and sections) are what the loader returns and
# raises, re-exported here: ``zipai_sim`` and most callers import them with load_variant
__all__ = ["Variant", "VariantError", "knob_value", "list_variants", "load_variant",
           "read_variant_file", "with_knobs"]

MAX_VARIANT_BYTES = 1 << 20  # a variant TOML file read at most; the shipped ones are ~4 KiB


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{where}: not valid TOML: {exc}") from None


@cache
def _shipped() -> dict[str, Any]:
    folder = resources.files("zipai_sim") / "rules"
    return {r.name.removesuffix(".toml"): r for r in folder.iterdir() if r.name.endswith(".toml")}


@cache
def _load_shipped(key: str) -> Variant:
    res = _shipped()[key]
    v = Variant.from_data(_parse(res.read_text(encoding="utf-8"), res.name), res.name,
                          Path(str(res)))
    if v.key != key:
        raise VariantError(
            f"{res.name}: key must be {_show(key)} (the file name), got {_show(v.key)}")
    return v


def list_variants() -> list[str]:
    """The keys of the shipped variants (RULES.md §8), sorted."""
    return sorted(_shipped())


def read_variant_file(path: str | os.PathLike[str]) -> str:
    """The text of a variant TOML file: a regular file of at most ``MAX_VARIANT_BYTES`` (1 MiB),
    read without blocking (``files.read_small_file``), or VariantError naming the file."""
    from zipai_sim.game.files import read_small_file

    where = os.fspath(path)
    try:
        return read_small_file(where, MAX_VARIANT_BYTES)
    except UnicodeDecodeError as exc:
        raise VariantError(f"{where}: cannot read the variant file: not UTF-8 text "
                           f"({exc.reason})") from None
    except ValueError as exc:  # not a regular file, or too large: "PATH is …"
        raise VariantError(f"{where}: the variant file "
                           f"{str(exc).removeprefix(where).strip()}") from None
    except OSError as exc:
        raise VariantError(f"{where}: cannot read the variant file: {exc}") from None


def load_variant(name_or_path: str | os.PathLike[str] | Variant) -> Variant:
    """Load and validate a variant (RULES.md §8).

    ``name_or_path``: a shipped key (see `list_variants`), a path to a TOML file in the
    shipped schema (a ``str`` counts as a path when it ends in ``.toml`` or holds a ``/``),
    or a `Variant`, returned as is. Shipped variants are cached.

    Raises:
        VariantError: unknown variant name (the message lists the known keys); missing file;
            invalid TOML; unknown, missing, wrongly typed (a bool where an integer is wanted
            included) or out-of-range keys, unknown enum strings, a deal that does not add up
            to 80 cards; a path that is not a regular file (a folder, FIFO, device) or is
            over ``MAX_VARIANT_BYTES`` (1 MiB), refused before it is read. The message starts
            with the file name and names the key, e.g. ``my.toml: [win].threshold must be an
            integer ≥ 0, got -3``.
        TypeError: ``name_or_path`` is of another type.
    """
    if isinstance(name_or_path, Variant):
        return name_or_path
    if isinstance(name_or_path, str) and name_or_path in _shipped():
        return _load_shipped(name_or_path)
    if isinstance(name_or_path, os.PathLike) or (
        isinstance(name_or_path, str) and (name_or_path.endswith(".toml") or "/" in name_or_path
                                           or os.sep in name_or_path)
    ):
        path = Path(name_or_path)
        where = os.fspath(name_or_path)
        text = read_variant_file(where)
        return Variant.from_data(_parse(text, where), where, path)
    if isinstance(name_or_path, str):
        raise VariantError(f"unknown variant {_show(name_or_path)}; known variants: "
                           f"{', '.join(list_variants())} (or give a path to a .toml file)")
    raise TypeError(f"load_variant takes a variant key, a path or a Variant, "
                    f"not {type(name_or_path).__name__}")


def with_knobs(variant: str | os.PathLike[str] | Variant, knobs: Mapping[str, Any]) -> Variant:
    """``variant`` with some knobs set otherwise, validated exactly as a TOML file is.

    ``knobs`` maps a knob's name, ``"SECTION.KEY"`` as in the file (``"settle.huangzhuang_dealer"``,
    ``"win.threshold"``, ``"mingtang.values.hong_hu"`` for one 名堂), to its value in the file's
    types (an int, bool, string, or a list for ``[small, big]`` pairs and tables). The overrides are
    applied to the variant's data and the whole rule set is checked again (RULES.md §8: each knob's
    type and range, the knobs that must agree, such as 荒庄 payments summing to 0), so an override
    that breaks a rule is refused as a file would be. The copy keeps the key and gets its own
    ``rules_hash``; its ``path`` is the original's.

    Raises:
        VariantError: an unknown section or key (the message lists the known ones), a value of the
            wrong type or out of range, a rule set that no longer adds up; the message starts with
            ``KEY with SECTION.KEY=VALUE`` and names the knob.
    """
    return load_variant(variant).with_knobs(knobs)


def knob_value(text: str) -> Any:
    """A knob's value as typed on a command line (``--set KNOB=VALUE``): TOML syntax (``-2``,
    ``true``, ``"same"``, ``[9, 12]``), or else the text itself as a string (``same``)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
