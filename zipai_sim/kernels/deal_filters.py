"""The cheap necessary tests a dealt hand passes before the deal loop asks the completability
automaton and then the 胡息 search (``kernels.opening``; RULES.md §3 groups, §4 胡息, §6 winning
on another player's card): ``may_be_complete`` for the dealer's hand alone, ``may_win_on`` for a
non-dealer's hand with the 亮张. Both work on packed hands (``kernels.packed``) in a few
branch-free bit operations; False means the search would certainly not complete (or not win),
so the deal loop's results are those of searching every hand (``tests/test_completes.py``).
"""

from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.hand import group_points, locked_points, peng_points
from zipai_sim.kernels.packed import (
    EQS_BIG,
    EQS_SMALL,
    LOW,
    RUN_STARTS,
    TWIN,
    W,
    classes,
    may_complete,
    orphans,
)

YS_SMALL = (1 << (W * 0)) | (1 << (W * 1)) | (1 << (W * 2))  # 一二三
YS_BIG = YS_SMALL << TWIN  # 壹贰叁


@njit(cache=True, _nrt=False)
def incoming_bonus(P, out):
    """Most 胡息 another player's card of kind ``k`` adds to a hand holding two of it (a 碰,
    ``out[0, k]``) or three (a 跑 over the 坎, ``out[1, k]``); ``out: int64[2, 20]``."""
    for k in range(20):
        out[0, k] = max(0, peng_points(P, k))
        out[1, k] = max(0, group_points(P, p.PAO_SMALL, k) - group_points(P, p.KAN_SMALL, k))


@njit(cache=True, _nrt=False, inline="always")
def _groups(m1, m2, g):
    """How many scoring free groups on kinds ``g`` (three bits) free cards held at least once
    (``m1``) / twice (``m2``) could hold: 0, 1 or 2."""
    return (1 if m1 & g == g else 0) + (1 if m2 & g == g else 0)


@njit(cache=True, _nrt=False, inline="always")
def huxi_bound(n3, n4, lz, x, m1, m2, P, bonus):
    """An upper bound of the 胡息 ``eval_hand`` can give a hand with another player's card
    ``lz`` (§4, §6): every 坎 and 提 held (masks ``n3``, ``n4``), the most the card can add to
    the ``x`` of its kind held (``bonus`` from ``incoming_bonus``) and two of each scoring free
    group (一二三, 二七十, small and big) that the free cards + the card (``m1``: held at least
    once, ``m2``: twice) hold twice, one of those held once."""
    return (locked_points(P, n3, n4)
            + bonus[0, lz] * (x == 2) + bonus[1, lz] * (x == 3)
            + _groups(m1, m2, YS_SMALL) * P[p.YIERSAN_SMALL]
            + _groups(m1, m2, YS_BIG) * P[p.YIERSAN_BIG]
            + _groups(m1, m2, EQS_SMALL) * P[p.ERQISHI_SMALL]
            + _groups(m1, m2, EQS_BIG) * P[p.ERQISHI_BIG])


@njit(cache=True, _nrt=False, inline="always")
def short_doubles(m1, m2):
    """Kinds held twice among free cards (``m2``; ``m1``: held at least once) that cannot both
    go into groups when no pair is owed (§3): each copy needs its own group, so a kind needs
    two ways to be taken (a run or 二七十 through it, counted twice when all its cards are held
    twice, or a 绞 taking one of it with two of its twin) unless a 绞 takes both (its twin is
    held). A necessary test, like ``packed.orphans`` one card deeper; 0: nothing short."""
    r1 = m1 & (m1 >> W) & (m1 >> (2 * W)) & RUN_STARTS
    r2 = m2 & (m2 >> W) & (m2 >> (2 * W)) & RUN_STARTS
    ones = r1
    twos = ones & (r1 << W)
    ones |= r1 << W
    twos |= ones & (r1 << (2 * W))
    ones |= r1 << (2 * W)
    twos |= r2 | (r2 << W) | (r2 << (2 * W))  # a run held twice is two groups
    for g in (EQS_SMALL, EQS_BIG):
        if m1 & g == g:
            twos |= (ones & g) | (g if m2 & g == g else 0)
            ones |= g
    twin2 = ((m2 >> TWIN) | (m2 << TWIN)) & LOW
    twin1 = ((m1 >> TWIN) | (m1 << TWIN)) & LOW
    twos |= ones & twin2
    return m2 & ~(twos | twin1)


@njit(cache=True, _nrt=False, inline="always")
def _few_short(short, n4):
    """Whether the kinds ``short`` (``short_doubles``) leave a split possible: none, or one when
    a four-card group is held (``n4`` != 0), so a pair is owed and may be that kind's two cards
    (taking cards out never gives another kind a way into a group)."""
    return short == 0 or (n4 != 0 and short & (short - 1) == 0)


@njit(cache=True, _nrt=False, inline="always")
def may_be_complete(pk):
    """Necessary test that the packed hand ``pk: int64`` (``kernels.packed``) is all groups
    (``packed.may_complete``, then ``short_doubles``: none short, or one where a pair is owed,
    which the pair may take). False: ``eval_hand`` gives -1."""
    if not may_complete(pk, -1):
        return False
    n1, n2, n3, n4 = classes(pk)
    return _few_short(short_doubles(n1 | n2, n2), n4)


@njit(cache=True, _nrt=False, inline="always")
def may_win_on(ps, lz, P, bonus):
    """Necessary test that packed cards ``ps: int64`` win on another player's card of kind
    ``lz`` (0..19), with the rules tuple ``P`` (``params``) and ``bonus: int64[2, 20]``
    (``incoming_bonus``); False: ``eval_hand`` would not win. No card may be left out of every
    group (``packed.may_complete`` with the card, here without its branches: the count of the
    card's kind is a coin toss for the branch predictor), a card that stays free must leave no
    kind short (``short_doubles``, ``_few_short``), and the 胡息 bound must reach the
    threshold (where 飘胡 wins at 0, any complete hand may win)."""
    n1, n2, n3, n4 = classes(ps)
    b = 1 << (W * lz)
    x = (ps >> (W * lz)) & 7
    m1 = n1 | n2 | b  # the card is free, or (beside a 坎, 抢招和) may be
    m2 = n2 | (b * (x == 1))
    pl = 1 if (n4 != 0) | (x == 3) else 0  # a 跑 makes a four-card group
    taken = b * (x >= 2)  # a 碰 or 跑 may take the card and its copies out of the free cards
    if orphans(m1, m2, pl) & ~taken != 0:
        return False
    if x <= 1 and not _few_short(short_doubles(m1, m2), n4):
        return False  # the card is free (no 碰 or 跑): about a third of the hands left
    return P[p.PIAOHU] == 1 or huxi_bound(n3, n4, lz, x, m1, m2, P, bonus) >= P[p.THRESHOLD]
