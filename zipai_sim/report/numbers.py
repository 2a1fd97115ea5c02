"""Numbers as a person reads them: the scale of a rate and the digits of a rate, a mean or a
difference (issue 11).

- **Scale.** A rate over all deals or hands of a run (天胡, 地胡, 海底, 提/坎 shapes) is shown per
  10,000 (``DEFAULT_PER``); a share of a part (win shares, 荒庄, a distribution given a win) in
  %. ``per`` (CLI ``--per``) puts every rate on one scale instead: 10000, 1000, 100 (%) or 1.
- **Digits.** A rate and its Wilson 95% interval get the decimals that show the interval's width
  to two significant digits; a mean gets those of its standard error (two significant digits):
  enough to resolve the interval, no more. ``130`` of ``200,000`` deals is ``6.5 [5.5, 7.7]``
  per 10,000.

>>> rate_text(130 / 200_000, 0.000547482, 0.0007717, 10_000)
('6.5', '[5.5, 7.7]')
>>> mean_text(0.8252, 0.0469)
'0.825 ± 0.047'
"""

from __future__ import annotations

import math
import re

#: rare per-deal events are shown per this many deals (or hands)
DEFAULT_PER = 10_000
# rates of events over the whole run (tiny numbers: per 10,000); every other rate is a share (%)
_RARE = re.compile(r"^(tianhu|dihu|instant|dealer_two_ti|dealer_complete|santi_seat|wukan_seat|"
                   r"two_ti_seat|haidi)")


def check_per(per: object, name: str = "per") -> int | None:
    """``per`` as a power of ten ≥ 1 (or None: the default scales), else ValueError naming
    ``name``."""
    if per is None:
        return None
    ok = isinstance(per, int) and not isinstance(per, bool) and per >= 1
    if not ok or 10 ** round(math.log10(per)) != per:
        raise ValueError(f"{name} must be a power of ten: 1, 10, 100, 1000, 10000 …; got {per!r}")
    return per


def scale_for(metric: str | None, per: int | None) -> int:
    """The scale a rate is shown in: ``per`` if given, else ``DEFAULT_PER`` for a rare event over
    all deals or hands and 100 (%) for a share."""
    if per is not None:
        return per
    return DEFAULT_PER if metric is not None and _RARE.match(metric) else 100


def unit_label(scale: int) -> str:
    """``100`` → ``"%"``, ``1`` → ``"fraction"``, else ``"per 10,000"``."""
    return {100: "%", 1: "fraction"}.get(scale, f"per {scale:,}")


def decimals(width: float, sig: int = 2) -> int | None:
    """Decimals that show ``width`` (an interval's width or an SE) to ``sig`` significant digits
    (none for a width ≥ 10); None for a width that is 0, NaN or missing.

    >>> decimals(2.2425), decimals(0.0469), decimals(31.0), decimals(0.0)
    (1, 3, 0, None)
    """
    if width is None or not math.isfinite(width) or width <= 0:
        return None
    return min(12, max(0, sig - 1 - math.floor(math.log10(width))))


def fixed(x: float, d: int) -> str:
    """``x`` with ``d`` decimals, never ``-0``."""
    s = f"{x:.{d}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def sig(x: float | None, k: int = 3) -> str:
    """``x`` to ``k`` significant digits in fixed notation (no exponent); "" for None/NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if x == 0:
        return "0"
    return fixed(x, max(0, k - 1 - math.floor(math.log10(abs(x)))))


def diff_text(mean: float, low: float, high: float) -> tuple[str, str]:
    """A signed difference (a paired score difference) and its interval, with the decimals of
    the interval's width (``decimals``); a zero-width interval keeps the exact value."""
    if mean is None or math.isnan(mean):
        return "", ""
    if math.isnan(low) or math.isnan(high):
        return sig(mean, 4), ""
    d = decimals(high - low)
    if d is None:  # a zero-width interval: every deck gave the same difference
        x = f"{mean:+g}" if mean else "0"
        return x, f"[{x}, {x}]"
    return (("+" if mean > 0 else "") + fixed(mean, d),
            f"[{fixed(low, d)}, {fixed(high, d)}]")


def rate_text(rate: float | None, low: float | None, high: float | None,
              scale: int = 100) -> tuple[str, str]:
    """A rate and its interval on ``scale`` (100 = %), with ``decimals`` of the interval's width:
    ``(value, "[low, high]")``; without an interval, the value to 3 significant digits."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "", ""
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return sig(rate * scale), ""
    d = decimals((high - low) * scale)
    if d is None:
        return sig(rate * scale, 4), ""
    return fixed(rate * scale, d), f"[{fixed(low * scale, d)}, {fixed(high * scale, d)}]"


def mean_text(mean: float | None, se: float | None) -> str:
    """``mean ± SE`` with the SE to two significant digits and the mean to the same decimals;
    the mean alone (4 significant digits) when the SE is undefined."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return ""
    if se == 0:  # every value the same (e.g. hands per match under a fixed number of hands)
        return f"{mean:g} ± 0"
    d = decimals(se) if se is not None else None
    return sig(mean, 4) if d is None else f"{fixed(mean, d)} ± {fixed(se, d)}"
