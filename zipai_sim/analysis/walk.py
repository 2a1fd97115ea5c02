"""A recorded hand walked through the reference engine (``play.engine.Game``), every question
of every seat noted as it is asked: the seat, what is asked (discard, 碰, 吃 with its 比, 胡),
the legal answers, the answer the record gives, the hand as that question's turn-loop step began
(the state its worlds are built from) and what the seat sees at that moment (``PositionView``);
and the table after every move, for the page (RULES.md §5–§6; records: docs/records.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from zipai_sim.game.cards import card_name
from zipai_sim.kernels import play as kp
from zipai_sim.pictures.view import Group, Offer, PositionView
from zipai_sim.play.engine import Game
from zipai_sim.records.format import HandRecord, cards_text
from zipai_sim.records.replay import RecordScript

#: question kinds (the kernel's ``RO_*``)
KINDS = {"discard": kp.RO_DISCARD, "peng": kp.RO_PENG, "chi": kp.RO_CHI, "hu": kp.RO_HU}
PASS = {"zh": "过", "en": "pass"}


@dataclass
class Question:
    """One question a seat answered (``kind`` a ``KINDS`` key; ``card`` the kind on offer, -1
    for a discard). ``vals``: the legal answers as the kernel codes them (a discard's kind; 碰
    and 胡: 1 take, 0 pass; 吃: the option's index, -1 pass), ``labels`` the same as text,
    ``played`` the record's answer (one of ``vals``; None for a typed position). ``step``: the
    turn-loop step it belongs to
    (``("rest", s)`` / ``("draw", s)``) and ``start`` the hand as that step began (None for a
    win offered at the deal: no step, nothing to play out). ``moves``: the moves made before it;
    ``nr``: the questions this seat answered before; ``view``: what the seat sees now."""

    seat: int
    kind: str
    card: int
    vals: list[int]
    labels: list[str]
    played: int | None
    moves: int
    nr: int
    view: PositionView
    step: tuple[str, int] | None = None
    start: Game | None = field(default=None, repr=False)
    huxi: int = 0

    def label(self, val: int) -> str:
        """The text of answer ``val``."""
        return self.labels[self.vals.index(val)]


def view_of(game: Game, viewer: int, to_move: int, offer: Offer | None = None,
            caption: str = "") -> PositionView:
    """What seat ``viewer`` sees of ``game`` now: its own hand, every seat's hand size, the
    table groups (another seat's 偎 face down, seed 000 ⑴), the cards beside each seat, the
    stock's size."""
    groups, huxi = [], []
    for s, pl in enumerate(game.players):
        gs = [Group(m.name, (-1,) * 3, True) if (m.name == "wei" and s != viewer)
              else Group(m.name, tuple(sorted(m.cards))) for m in pl.melds]
        groups.append(gs)
        huxi.append(sum(m.huxi for m, g in zip(pl.melds, gs, strict=True) if not g.hidden))
    me = game.players[viewer].hand
    return PositionView(game.seats, viewer, [k for k in range(20) for _ in range(me[k])],
                        [sum(pl.hand) for pl in game.players], groups,
                        [list(pl.beside) for pl in game.players], len(game.stock), to_move,
                        offer, huxi, caption)


def chi_label(group: tuple[int, ...], bi: tuple, lang: str = "zh") -> str:
    """A 吃 answer as text: the group, then each 比 group (``吃 一二三 比 一二三``)."""
    word, biw = ("吃", "比") if lang == "zh" else ("chi", "bi")
    return f"{word} {cards_text(group)}" + "".join(f" {biw} {cards_text(b)}" for b in bi)


class _Asked(RecordScript):
    """The record's answers (``records.replay``'s script), each question noted on the way."""

    wants_steps = True  # the engine keeps ``Game.step0``, the step each question belongs to

    def __init__(self, rec: HandRecord, lang: str):
        super().__init__(rec)
        self.lang = lang
        self.questions: list[Question] = []
        self.counts: dict[int, int] = {}

    def _note(self, game, seat, kind, card, vals, labels, played, huxi=0) -> None:
        nr = self.counts.get(seat, 0)
        self.counts[seat] = nr + 1
        last = game.moves[-1] if game.moves else None
        offer = None
        if card >= 0 and last is not None and last[1] in ("draws", "discards"):
            offer = Offer(card, last[0], last[1] == "draws")
        step0 = getattr(game, "step0", None)
        self.questions.append(Question(
            seat, kind, card, vals, labels, played, len(game.moves), nr,
            view_of(game, seat, seat, offer), None if step0 is None else step0[0],
            None if step0 is None else step0[1], huxi))

    def discard(self, game, seat, options):
        c = super().discard(game, seat, options)
        if len(options) > 1:  # one legal discard is no question (``kernels.play.script``)
            self._note(game, seat, "discard", -1, list(options),
                       [card_name(k) for k in options], c)
        return c

    def peng(self, game, seat, card):
        yes = super().peng(game, seat, card)
        word = "碰" if self.lang == "zh" else "peng"
        self._note(game, seat, "peng", card, [1, 0], [f"{word} {card_name(card) * 3}",
                                                      PASS[self.lang]], int(yes))
        return yes

    def chi(self, game, seat, card, options):
        i = super().chi(game, seat, card, options)
        self._note(game, seat, "chi", card, list(range(len(options))) + [-1],
                   [chi_label(g, bi, self.lang) for g, bi in options] + [PASS[self.lang]], i)
        return i

    def hu(self, game, seat, card, huxi):
        yes = super().hu(game, seat, card, huxi)
        word = "胡" if self.lang == "zh" else "hu"
        self._note(game, seat, "hu", card, [1, 0], [f"{word} ({huxi} 胡息)", PASS[self.lang]],
                   int(yes), huxi)
        return yes


class _Watched(Game):
    """The engine, keeping the table after every move as ``viewer`` sees it."""

    viewer = 0

    def say(self, s, what, cards=()):
        super().say(s, what, cards)
        self.views.append(view_of(self, self.viewer, s, caption=self.log[-1]))


@dataclass
class Walk:
    """A record walked: its ``questions`` in the order asked, the ``game`` at the end, and
    ``views[i]``: the table as ``viewer`` saw it after move ``i`` (``views[0]``: the deal)."""

    questions: list[Question]
    game: Game
    views: list[PositionView]
    log: list[str]


def walk(rec: HandRecord, variant, viewer: int = 0, lang: str = "zh") -> Walk:
    """Walk record ``rec`` under ``variant`` through the reference engine (module docstring):
    its questions, the final hand and the table after every move as seat ``viewer`` saw it
    (RULES.md §5–§6). ``lang``: the answers' labels (zh/en). The record must have replayed
    (``records.replay``): a record that does not raises ReplayError here too."""
    script = _Asked(rec, lang)
    game = _Watched(variant, rec.deck(), [script] * variant.layout.players)
    game.viewer = viewer
    game.views = [view_of(game, viewer, 0, caption="deal")]
    game.play()
    return Walk(script.questions, game, game.views, game.log)
