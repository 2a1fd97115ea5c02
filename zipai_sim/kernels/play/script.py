"""Who answers a question when a rollout is under way (``kernels.play.rollout``).

Two modes of ``ints[I_MODE]`` change who answers a discard, 碰 or 吃 question:

- mode 1, the real hand replayed with a list of rollout answers: a ``POL_ROLLOUT`` (or
  ``POL_TEACHER``, ``POL_SEARCH``, ``POL_ORACLE``: everything below holds for them, with their
  fast bot, study or learned, where greedy is named) seat takes
  its answers from the list in the order the questions come; at the first question beyond the
  list it answers as greedy and *freezes* that question (seat, kind, card, candidate answers,
  greedy's answer first) so that the driver can run playouts for it from the snapshot taken at
  the start of that turn-loop step;
- mode 2, a playout world started from such a snapshot: during the world's first step the
  question is *scripted*: the shown discard is replayed first (``I_SC_C0``), any question before
  the rollout seat's is passed (nobody took the card in the real hand, or the seat would not have
  been asked), and the rollout seat's question gets the candidate answer; everything after is
  greedy.

Questions with one possible answer (a single discard option) are never rollout questions.

A win on offer (胡) is taken at once, except in two cases (``hu_declined``): with
``ints[I_ASK_HU]`` set, mode 1 lists and freezes it as a question like the others (answers 1
take, 0 decline: the hand analysis asks what declining is worth), and in mode 2 the scripted
seat's win in the world's first step follows the script: its own 胡 question gets the candidate,
and before a later question of that step it declines (in the real hand it reached that question,
so it declined or could not win). In the hand analysis's worlds (``I_ASK_HU`` set in mode 2) no
other seat wins before the scripted question either: in the real hand none did, and a world
must agree with what the asking seat saw. The bots' worlds keep their first design (another
seat may win there), so their measured results stand (docs/decisions.md "Hand analysis").
"""

from numba import njit

from zipai_sim.kernels.play.layout import (
    FZ_CARD,
    FZ_KIND,
    FZ_N,
    FZ_NR,
    FZ_OPTS,
    FZ_SEAT,
    I_ASK_HU,
    I_FZ,
    I_MODE,
    I_RO_CNT,
    I_RO_D,
    I_RO_FROZEN,
    I_RO_I,
    I_RO_N,
    I_SC_C0,
    I_SC_KIND,
    I_SC_ON,
    I_SC_SEAT,
    I_SC_VAL,
    MAX_CANDS,
    MAX_RO,
    POL_LEARNED,
    POL_NEURAL,
    POL_ORACLE,
    POL_ROLLOUT,
    POL_SEARCH,
    POL_STUDY,
    POL_TEACHER,
    RO_HU,
    i64,
)


@njit(cache=True, _nrt=False, inline="always")
def searches(pol):
    """A seat policy whose questions are answered by playouts (rollout, teacher, search,
    oracle): the ones that freeze in mode 1."""
    return pol == POL_ROLLOUT or pol == POL_TEACHER or pol == POL_SEARCH or pol == POL_ORACLE


@njit(cache=True, _nrt=False, inline="always")
def plays_learned(pol):
    """A seat whose own answer is the learned bot's (learned; search and oracle start there;
    neural is learned with a network's value)."""
    return pol == POL_LEARNED or pol == POL_SEARCH or pol == POL_ORACLE or pol == POL_NEURAL


@njit(cache=True, _nrt=False, inline="always")
def plays_study(pol):
    """A seat whose own answer is study's (study; the teacher starts there)."""
    return pol == POL_STUDY or pol == POL_TEACHER


@njit(cache=True, _nrt=False, inline="always")
def listed(ints, policies, s):
    """Mode 1 and seat ``s`` is a rollout seat whose next answer is on the list."""
    return ints[I_MODE] == 1 and searches(policies[s]) and ints[I_RO_I] < ints[I_RO_N]


@njit(cache=True, _nrt=False)
def next_listed(ints, s):
    """The next listed answer (``listed`` was True)."""
    i = ints[I_RO_I]
    ints[I_RO_I] = i + 1
    ints[I_RO_CNT + s] += 1
    return ints[I_RO_D + i]


@njit(cache=True, _nrt=False, inline="always")
def freezing(ints, policies, s):
    """Mode 1, seat ``s`` is a rollout seat and its question is beyond the list."""
    return ints[I_MODE] == 1 and searches(policies[s])


@njit(cache=True, _nrt=False)
def _freeze_head(ints, s, kind, card):
    """Start freezing a question; False when one is frozen already or the list is full."""
    if ints[I_RO_FROZEN] == 1 or ints[I_RO_N] >= MAX_RO:
        return False
    ints[I_RO_FROZEN] = 1
    ints[I_FZ + FZ_SEAT] = s
    ints[I_FZ + FZ_KIND] = kind
    ints[I_FZ + FZ_CARD] = card
    ints[I_FZ + FZ_NR] = ints[I_RO_CNT + s]
    return True


@njit(cache=True, _nrt=False)
def freeze_list(ints, s, kind, card, default, first, n):
    """Freeze a question whose answers are ``first, first + 1, … first + n - 1`` (碰: 0..1, 吃:
    -1..n-2), greedy's ``default`` first, the others in order."""
    if not _freeze_head(ints, s, kind, card):
        return
    ints[I_FZ + FZ_OPTS] = default
    m = i64(1)
    for v in range(first, first + n):
        if v != default and m < MAX_CANDS:
            ints[I_FZ + FZ_OPTS + m] = v
            m += 1
    ints[I_FZ + FZ_N] = m


@njit(cache=True, _nrt=False)
def freeze_discard(ints, s, kind, opts, n, default):
    """Freeze a discard question over the kinds ``opts[:n]``, greedy's ``default`` first."""
    if not _freeze_head(ints, s, kind, i64(-1)):
        return
    ints[I_FZ + FZ_OPTS] = default
    m = i64(1)
    for i in range(n):
        if opts[i] != default:
            ints[I_FZ + FZ_OPTS + m] = opts[i]
            m += 1
    ints[I_FZ + FZ_N] = m


@njit(cache=True, _nrt=False, inline="always")
def scripted(ints):
    """A playout world's first step, its script still live: the next question is scripted."""
    return ints[I_MODE] == 2 and ints[I_SC_ON] == 1


@njit(cache=True, _nrt=False)
def script_discard(ints, opts, s, n, kind):
    """A scripted discard: the rollout seat's candidate, else the shown discard replayed (-1 when
    the world's hand cannot discard it: the script ends, the world plays on greedy)."""
    if s == ints[I_SC_SEAT] and ints[I_SC_KIND] == kind:
        ints[I_SC_ON] = 0
        return ints[I_SC_VAL]
    c0 = ints[I_SC_C0]
    ints[I_SC_C0] = -1
    for i in range(n):
        if opts[i] == c0:
            return c0
    ints[I_SC_ON] = 0
    return i64(-1)


@njit(cache=True, _nrt=False)
def script_claim(ints, s, kind, passing):
    """A scripted 碰/吃 answer: the candidate for the rollout seat's question, else ``passing``."""
    if s == ints[I_SC_SEAT] and ints[I_SC_KIND] == kind:
        ints[I_SC_ON] = 0
        return ints[I_SC_VAL]
    return i64(passing)


@njit(cache=True, _nrt=False)
def hu_declined(ints, policies, s, c):
    """Whether seat ``s`` declines the win on card ``c`` it may take (module docstring); false
    outside the two cases, so plain play and the bots always win."""
    if ints[I_MODE] == 2:
        if ints[I_SC_ON] == 1 and s == ints[I_SC_SEAT]:
            if ints[I_SC_KIND] == RO_HU:
                ints[I_SC_ON] = 0
                return ints[I_SC_VAL] == 0
            return True
        # an analysis world (``I_ASK_HU`` set by ``kernels.play.analysis.load_state``): before
        # the scripted question no other seat won in the real hand either
        return ints[I_SC_ON] == 1 and ints[I_ASK_HU] == 1

    if ints[I_MODE] == 1 and ints[I_ASK_HU] == 1 and searches(policies[s]):
        if ints[I_RO_I] < ints[I_RO_N]:
            return next_listed(ints, i64(s)) == 0
        freeze_list(ints, i64(s), i64(RO_HU), i64(c), i64(1), i64(0), i64(2))
    return False
