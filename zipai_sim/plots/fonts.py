"""The fonts of the figures (issue 11): DejaVu Sans (matplotlib's own) for Latin text, and for
``lang="zh"`` the Simplified-Chinese font Noto Sans SC (SIL OFL 1.1) that the PyPI package
``pylopdf-fonts-zh-cn`` ships, a dependency of zipai-sim, so Chinese figures render the same on a
fresh machine with no system CJK font (docs/decisions.md, "Figures (issue 11)").

The font is registered with matplotlib's ``font_manager`` when a Chinese figure is drawn, never
at import, and never by changing ``rcParams``: only the texts of that figure use it.

>>> "天胡" in "".join(missing_glyphs("天胡 地胡 荒庄", "en"))   # DejaVu has no Han glyphs
True
>>> missing_glyphs("天胡 地胡 荒庄 翻信 胡息 庄家 下家 上家", "zh")
[]
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

#: the family name of the bundled Chinese font (as matplotlib's font_manager reads it)
CJK_FAMILY = "Noto Sans SC"
#: matplotlib's default sans-serif, always installed with matplotlib
LATIN_FAMILY = "DejaVu Sans"


def cjk_font_path() -> Path:
    """Path of Noto Sans SC Regular (OpenType CFF) inside the installed ``pylopdf-fonts-zh-cn``.
    Raises ModuleNotFoundError when that dependency is not installed (``uv sync`` installs it);
    FileNotFoundError when its font file is missing."""
    import pylopdf_fonts_zh_cn  # a data-only package: the font and two path helpers

    path = Path(pylopdf_fonts_zh_cn.sans_path())
    if not path.is_file():
        raise FileNotFoundError(f"the Chinese font is missing from pylopdf-fonts-zh-cn: {path}")
    return path


@cache
def register_cjk() -> str:
    """Add the Chinese font to matplotlib's font_manager (once per process); returns its family
    name, ``CJK_FAMILY``."""
    from matplotlib import font_manager

    font_manager.fontManager.addfont(str(cjk_font_path()))
    return CJK_FAMILY


def families(lang: str) -> list[str]:
    """The font family list a figure's texts use: ``["DejaVu Sans"]`` for ``"en"``;
    ``["DejaVu Sans", "Noto Sans SC"]`` for ``"zh"`` (matplotlib falls back glyph by glyph, so
    Latin text looks the same in both languages). Registers the Chinese font for ``"zh"``."""
    if lang == "zh":
        return [LATIN_FAMILY, register_cjk()]
    return [LATIN_FAMILY]


@cache
def _charmap(path: str) -> frozenset[int]:
    from matplotlib import ft2font

    return frozenset(ft2font.FT2Font(path).get_charmap())


def missing_glyphs(text: str, lang: str) -> list[str]:
    """The characters of ``text`` (whitespace aside) that no font of ``families(lang)`` has, in
    order of first appearance: what matplotlib would draw as empty boxes."""
    from matplotlib import font_manager

    maps = []
    for fam in families(lang):
        path = font_manager.findfont(font_manager.FontProperties(family=fam),
                                     fallback_to_default=False)
        maps.append(_charmap(path))
    out: list[str] = []
    for ch in text:
        if not ch.isspace() and ch not in out and not any(ord(ch) in m for m in maps):
            out.append(ch)
    return out
