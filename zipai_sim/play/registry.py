"""The bot table (issue 55): every shipped bot is one ``Bot`` entry, and every list of bots in
the package is made from ``BOTS`` — the names the command line and Python accept, their help
texts and error messages, the kernel codes and the traits the drivers branch on (which bots
search, cheat, read the learned weights, answer for a batch policy), the readable twins the
reference engine plays, the docs' bot table and the tests' parametrisation.

Adding a bot is one entry here plus its kernel (a ``POL_*`` code in ``kernels.play.layout``
and its branch in the turn loop) and its readable twin (a ``Policy`` class in ``play``); the
tests then hold it to the rules checker, the hidden-card redeal and twin-against-kernel play.

This module imports nothing heavy (no numpy, no numba): the command line builds its parser from
it before any kernel is loaded.

>>> [b.name for b in BOTS if b.searches]
['rollout', 'teacher', 'search', 'oracle']
>>> bot("learned").fast, bot("search").fast
(None, 'learned')
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

#: what a fair bot reads: what its seat's ``Observation`` shows (RULES.md §5–§6), tested by
#: redealing every card it cannot see
SEES_SEAT = "its seat"
#: what the ceiling reads: every seat's hand (only the stock's order stays hidden; a cheat,
#: named so)
SEES_ALL = "every hand"


@dataclass(frozen=True)
class Bot:
    """One shipped bot.

    ``name``: how Python and the command line call it; ``code``: its kernel code
    (``kernels.play.layout.POL_*``; a line-up is ``int64[seats]`` of them); ``summary``: one
    line for help texts and the docs; ``sees``: ``SEES_SEAT`` or ``SEES_ALL``; ``kernel``: the
    kernel module that answers for it; ``twin``: ``module:Class`` of its readable twin on the
    reference engine. Traits: ``searches`` (plays candidate answers out in K sampled worlds,
    driven from ``play.rollout``; ``fast`` names the bot whose answer it starts from and that
    plays its worlds), ``teaches`` (keeps ``fast``'s answer unless another beats it,
    ``play.rollout.beats``), ``cuts`` (worlds cut short and valued by the cut value, the
    weights file's ``value``), ``weights`` (reads the variant's learned weights,
    ``play.learned``), ``model`` (reads the variant's network, ``play.neural``).
    """

    name: str
    code: int
    summary: str
    sees: str
    kernel: str
    twin: str
    searches: bool = False
    fast: str | None = None
    teaches: bool = False
    cuts: bool = False
    weights: bool = False
    model: bool = False

    @property
    def cheats(self) -> bool:
        """Reads what no player sees: exempt from the hidden-card test, flagged in every
        report that has it (``studies.arena.cheat_note``)."""
        return self.sees != SEES_SEAT

    @property
    def twin_class(self) -> type:
        """The twin's class (imported on first use)."""
        mod, _, cls = self.twin.partition(":")
        return getattr(import_module(mod), cls)


BOTS: tuple[Bot, ...] = (
    Bot("random", 0, "a uniformly random legal answer (every bot takes a 胡 on offer)", SEES_SEAT,
        "zipai_sim.kernels.play.policies", "zipai_sim.play.bots:RandomPolicy"),
    Bot("greedy", 1, "the answer keeping the most winning waits, then waits, then 胡息; one ply",
        SEES_SEAT, "zipai_sim.kernels.play.policies", "zipai_sim.play.bots:GreedyPolicy"),
    Bot("lookahead", 2, "the answer whose hand most likely wins from the unseen cards "
        "(exact hypergeometric), one draw ahead", SEES_SEAT, "zipai_sim.kernels.play.lookahead",
        "zipai_sim.play.bots:LookaheadPolicy"),
    Bot("rollout", 3, "every answer played out in K sampled worlds, greedy at every seat after "
        "it; the best paid answer", SEES_SEAT, "zipai_sim.kernels.play.rollout",
        "zipai_sim.play.bots_rollout:RolloutPolicy", searches=True, fast="greedy"),
    Bot("study", 4, "lookahead weighing 放炮 before each discard (sampled hands of the others)",
        SEES_SEAT, "zipai_sim.kernels.play.study", "zipai_sim.play.bots:StudyPolicy"),
    Bot("teacher", 5, "study's answer unless another beats it over K study playouts",
        SEES_SEAT, "zipai_sim.kernels.play.rollout",
        "zipai_sim.play.bots_rollout:TeacherPolicy", searches=True, fast="study",
        teaches=True),
    Bot("learned", 6, "one ply by a tuned linear value of 18 hand-made features (the "
        "variant's weights file; no network)", SEES_SEAT, "zipai_sim.kernels.play.learned",
        "zipai_sim.play.bots_learned:LearnedPolicy", weights=True),
    Bot("search", 7, "learned's answer unless another beats it over K learned playouts cut "
        "short by the cut value", SEES_SEAT, "zipai_sim.kernels.play.search",
        "zipai_sim.play.bots_rollout:SearchPolicy", searches=True, fast="learned",
        teaches=True, cuts=True, weights=True),
    Bot("oracle", 8, "the search playing the real deal (every hand seen): the ceiling, a "
        "cheat", SEES_ALL, "zipai_sim.kernels.play.search",
        "zipai_sim.play.bots_rollout:OraclePolicy", searches=True, fast="learned",
        teaches=True, cuts=True, weights=True),
    Bot("neural", 9, "learned's one ply by a network's value (two hidden layers over what the "
        "seat sees, trained by self-play: the variant's model file)", SEES_SEAT,
        "zipai_sim.kernels.play.neural", "zipai_sim.play.bots_neural:NeuralPolicy",
        model=True),
)

#: worlds per candidate answer a searching bot plays unless told (``rollout_k``, ``--rollout-k``)
DEFAULT_K = 32

_BY_NAME = {b.name: b for b in BOTS}
assert [b.code for b in BOTS] == list(range(len(BOTS))), "codes are the bots' places"

#: every bot's name, in the order of their kernel codes
POLICY_NAMES: tuple[str, ...] = tuple(b.name for b in BOTS)
#: the bots that search by playouts (``play.rollout`` drives them; ``rollout_k`` worlds each)
SEARCH_POLICIES: tuple[str, ...] = tuple(b.name for b in BOTS if b.searches)
#: the bots the numba turn loop answers for by itself (a batch policy plays beside these)
FAST_POLICIES: tuple[str, ...] = tuple(b.name for b in BOTS if not b.searches)
#: the bots that see what no player sees
CHEATING_POLICIES: tuple[str, ...] = tuple(b.name for b in BOTS if b.cheats)
#: kernel codes of the searching, teaching and cut-world bots (``play.rollout``) and of the
#: seats that read the learned weights (``play.learned.weights_for``)
SEARCH_CODES: tuple[int, ...] = tuple(b.code for b in BOTS if b.searches)
TEACHING_CODES: tuple[int, ...] = tuple(b.code for b in BOTS if b.teaches)
CUT_CODES: tuple[int, ...] = tuple(b.code for b in BOTS if b.cuts)
LEARNED_CODES: tuple[int, ...] = tuple(b.code for b in BOTS if b.weights)
MODEL_CODES: tuple[int, ...] = tuple(b.code for b in BOTS if b.model)
#: a batch policy's hint (the fast bot whose answer the engine keeps beside each question) →
#: the code its seat takes: the fair searching bot built on that fast bot, whose freeze
#: machinery stops the hand at the question (``play.batch``)
HINT_CODES: dict[str, int] = {b.fast: b.code for b in BOTS
                              if b.searches and not b.cheats and b.fast}


def bot(name: object) -> Bot:
    """The entry of bot ``name``; ValueError naming the known bots otherwise."""
    if not isinstance(name, str) or name not in _BY_NAME:
        raise ValueError(f"unknown bot {name!r}; known: {names_text()}")
    return _BY_NAME[name]


def names_text(names: tuple[str, ...] = POLICY_NAMES) -> str:
    """``names`` as a sentence's list: ``"random, greedy … or oracle"``."""
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def cheat_text() -> str:
    """A help text's warning about the bots that see every hand: ``"; oracle sees every
    hand: it cheats"`` (empty when none does)."""
    bad = CHEATING_POLICIES
    if not bad:
        return ""
    one = len(bad) == 1
    return (f"; {names_text(bad)} {'sees' if one else 'see'} every hand: "
            f"{'it cheats' if one else 'they cheat'}")


def help_text() -> str:
    """One line per bot, for a command's ``--policy`` help (``name: summary``)."""
    return "; ".join(f"{b.name}: {b.summary}" for b in BOTS)


def _reads(b: Bot) -> str:
    """What data file a bot reads, for the docs' table."""
    if b.model:
        return "model file"
    return "weights file" if b.weights else "—"


def markdown_table() -> str:
    """The docs' bot table (docs/guide/arena.md, between its ``bots`` markers; a test keeps
    the page equal to this)."""
    lines = ["| bot | what it does | sees | searches (K worlds) | reads | kernel | twin |",
             "|---|---|---|---|---|---|---|"]
    for b in BOTS:
        search = f"yes, from {b.fast}" if b.searches else "no"
        lines.append(f"| `{b.name}` | {b.summary} | {b.sees} | {search} | "
                     f"{_reads(b)} | `{b.kernel.removeprefix('zipai_sim.')}` | "
                     f"`{b.twin.removeprefix('zipai_sim.').replace(':', '.')}` |")
    return "\n".join(lines)
