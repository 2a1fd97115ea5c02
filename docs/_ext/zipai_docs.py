"""Build extensions of the documentation site (mkdocs.yml), kept beside the pages.

The docstrings of zipai_sim and the pages cite the rules as ``RULES.md §N`` and the regional
texts as ``seed 000 ⑴`` or ``seed 004 篇4``. Two hooks, neither touching the code:

- ``DoctestFences``, a griffe extension for the API reference (mkdocstrings ``extensions``):
  at load time every unindented doctest block (``>>>``) of a docstring is wrapped in a
  ``pycon`` fence (as plain Markdown a doctest would become a nested block quote, and
  ``x[..][0]`` a reference link), and each citation outside code becomes a link;
- ``on_page_markdown``, a MkDocs hook (``hooks``): the same links in every page (a page does not
  link to itself).

A link is an autorefs link to an anchor of docs/RULES.md (``rules-s6``, ``rules-s5-3``) or of
docs/sources.md (``seed-000-1``, or the file's ``seed-000`` where the part has no section), so a
citation of a section the rules page does not have fails the strict build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

_RULES = re.compile(r"(?<!\[)RULES\.md §(\d+)(?:\.(\d+))?")
_SEED = re.compile(r"(?<!\[)\bseeds? (\d{3})(?!\d)(?: ?([⑴⑵⑶⑷⑸⑹⑺⑻⑼]|篇[1-9]))?")
_CODE = re.compile(r"(``?[^`]*``?)")
_SOURCES = Path(__file__).resolve().parents[1] / "sources.md"
SEED_ANCHORS = set(re.findall(r"\{#(seed-[\d-]+)\}", _SOURCES.read_text(encoding="utf-8")))


def _rules_link(match: re.Match[str]) -> str:
    major, minor = match.group(1), match.group(2)
    anchor = f"rules-s{major}" + (f"-{minor}" if minor else "")
    return f"[{match.group(0)}][{anchor}]"


def _seed_link(match: re.Match[str]) -> str:
    number, part = match.group(1), match.group(2)
    anchor = f"seed-{number}"
    if anchor not in SEED_ANCHORS:
        # "seed 777" of a run's RNG, not a seed text: leave it as it is
        return match.group(0)
    if part:
        k = part[1:] if part.startswith("篇") else str(ord(part) - ord("⑴") + 1)
        anchor = f"{anchor}-{k}" if f"{anchor}-{k}" in SEED_ANCHORS else anchor
    return f"[{match.group(0)}][{anchor}]"


def link_citations(line: str, rules: bool = True, seeds: bool = True) -> str:
    """Citations outside code spans (`x` or ``x``) as links: ``RULES.md §N`` to the section,
    ``seed 000 ⑴`` to the seed text's part."""
    def link(text: str) -> str:
        text = _RULES.sub(_rules_link, text) if rules else text
        return _SEED.sub(_seed_link, text) if seeds else text

    parts = _CODE.split(line)
    return "".join(p if i % 2 else link(p) for i, p in enumerate(parts))


def fence_doctests(text: str, doctests: bool = True, **links: bool) -> str:
    """``text`` with its doctest blocks fenced (when ``doctests``) and its citations linked;
    fenced code is left as it is."""
    out: list[str] = []
    lines = text.splitlines()
    i, fence = 0, ""
    while i < len(lines):
        line = lines[i]
        opener = re.match(r"\s*(```+|~~~+)", line)
        if opener and (not fence or opener.group(1).startswith(fence)):
            fence = "" if fence else opener.group(1)
        elif not fence and doctests and line.startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += ["```pycon", *block, "```"]
            continue
        out.append(line if fence or opener else link_citations(line, **links))
        i += 1
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


class DoctestFences(griffe.Extension):
    """Fence doctests and link rule citations in every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """MkDocs hook: link the citations of every page (not the rules page's own §, nor the
    sources page's own seeds)."""
    src = page.file.src_uri
    return fence_doctests(markdown, doctests=False, rules=src != "RULES.md",
                          seeds=src != "sources.md")
