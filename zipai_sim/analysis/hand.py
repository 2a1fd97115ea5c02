"""``analyze``: every decision of a recorded hand valued (issue 40): for each question of the
chosen seats, every legal answer's expected settled score with its 95% interval from worlds
consistent with what that seat had seen, the answer played, its loss against the best, and the
seat's chance to win (``analysis.values``; the worlds: ``kernels.play.rollout``)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from zipai_sim.analysis.values import AnswerRow, question_values, summarize
from zipai_sim.analysis.walk import Question, Walk, walk
from zipai_sim.game.cards import card_name
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels.play import rollout as kr
from zipai_sim.play import POLICY_NAMES, SEARCH_POLICIES
from zipai_sim.play.payoffs import OutcomeCache
from zipai_sim.records.file import read_record
from zipai_sim.records.format import HandRecord
from zipai_sim.records.replay import replay
from zipai_sim.report import DEFAULT_SEED
from zipai_sim.runs.chunks import check_column_seed

DEFAULT_WORLDS = 64
MAX_WORLDS = kr.MAX_K  # a world's stream index is below it (``kernels.play.rollout``)
#: the bots that may play on in the worlds (a searching bot would search inside every world)
PLAYOUT_POLICIES = tuple(x for x in POLICY_NAMES if x not in SEARCH_POLICIES)
DEFAULT_POLICY = "study"  # the teacher's own playout bot
BATCH = 8  # questions played out together (a progress tick, a Ctrl-C boundary)


@dataclass
class Decision:
    """One analysed question and its answers (``rows``: ``AnswerRow`` in legal-answer order).
    ``_repr_svg_`` draws the table as the seat saw it (``pictures.draw_position``)."""

    index: int
    question: Question
    rows: list[AnswerRow]

    @property
    def played(self) -> AnswerRow | None:
        """The answer played (None for a typed position)."""
        return next((r for r in self.rows if r.played), None)

    @property
    def best(self) -> AnswerRow:
        return next(r for r in self.rows if r.best)

    @property
    def view(self):
        """What the seat saw at this question (``pictures.PositionView``)."""
        return self.question.view

    def draw(self, lang: str = "zh"):
        """The table at this question as the seat saw it (``pictures.Svg``)."""
        from zipai_sim.pictures import draw_position

        return draw_position(self.question.view, lang=lang)

    def _repr_svg_(self) -> str:
        return self.draw()._repr_svg_()

    def __repr__(self) -> str:
        return f"Decision(#{self.index}, {str(self).splitlines()[0]})"

    def __str__(self) -> str:
        q = self.question
        on = f" on {card_name(q.card)}" if q.card >= 0 else ""
        p = self.played
        lines = [f"seat {q.seat} {q.kind}{on}: " + (
            f"played {p.answer}, best {self.best.answer} (loss {p.loss:.2f} [{p.loss_lo:.2f}, "
            f"{p.loss_hi:.2f}])" if p is not None else f"best {self.best.answer}")]
        for r in sorted(self.rows, key=lambda r: -r.value):
            mark = ("*" if r.best else " ") + ("<" if r.played else " ")
            lines.append(f"  {mark} {r.answer:<14} {r.value:8.2f} [{r.lo:.2f}, {r.hi:.2f}]  "
                         f"win {100 * r.win:5.1f}%")
        return "\n".join(lines)


@dataclass
class Analysis:
    """An analysed hand: the ``record``, its ``variant``, the analysed ``seats``, the settings
    (``worlds``, ``policy``, ``seed``), its ``decisions`` in the order asked, the engine's
    ``walk`` (every move and question, the table after each move), the ``header`` line, and
    ``partial``: Ctrl-C stopped it before the last decision (``n_questions`` were asked)."""

    record: HandRecord
    variant: Variant
    seats: list[int]
    worlds: int
    policy: str
    seed: int
    decisions: list[Decision]
    walk: Walk = field(repr=False)
    n_questions: int = 0
    partial: bool = False
    seconds: float = 0.0
    lang: str = "zh"
    threads: int | None = None  # the threads it ran on (the numbers do not depend on them)

    @property
    def unit(self) -> str:
        """The variant's unit of score as its TOML names it: duo 舵, you 油, tun 囤, pai 排 or hu
        胡 (``game.sections.UNIT_NAMES``)."""
        return self.variant.settle.unit

    @property
    def header(self) -> str:
        """The one-line header every command prints (variant, rules hash, threshold, seed,
        worlds, policy, the record)."""
        from zipai_sim.report import header

        h = self.record.header
        extra = [f"record {self.record.source} (seed {h['seed']}, deal {h['deal']})",
                 f"seats {', '.join(map(str, self.seats))}",
                 f"{self.worlds} worlds a question", f"play-outs by {self.policy}"]
        return header([(self.variant.key, self.variant.rules_hash)], [self.variant.win.threshold],
                      seed=self.seed, threads=self.threads, seconds=self.seconds, extra=extra,
                      partial=self.partial,
                      n=len(self.decisions), n_requested=self.n_questions, unit="decisions")

    def table(self) -> pl.DataFrame:
        """One row per answer of every decision: ``decision``, ``move`` (moves made before
        it), ``seat``, ``kind`` (discard/peng/chi/hu), ``card`` (on offer, null for a
        discard), ``answer``, ``value`` [``value_lo``, ``value_hi``] (expected settled score,
        ``unit``), ``loss`` [``loss_lo``, ``loss_hi``] against the best, ``win``
        [``win_lo``, ``win_hi``] (chance to win the hand), ``played``, ``best``."""
        rows = []
        for d in self.decisions:
            q = d.question
            for r in d.rows:
                rows.append({"decision": d.index, "move": q.moves, "seat": q.seat,
                             "kind": q.kind, "card": card_name(q.card) if q.card >= 0 else None,
                             "answer": r.answer, "value": r.value, "value_lo": r.lo,
                             "value_hi": r.hi, "loss": r.loss, "loss_lo": r.loss_lo,
                             "loss_hi": r.loss_hi, "win": r.win, "win_lo": r.win_lo,
                             "win_hi": r.win_hi, "played": r.played, "best": r.best})
        schema = {"decision": pl.Int64, "move": pl.Int64, "seat": pl.Int64, "kind": pl.String,
                  "card": pl.String, "answer": pl.String, **{
                      c: pl.Float64 for c in ("value", "value_lo", "value_hi", "loss",
                                              "loss_lo", "loss_hi", "win", "win_lo", "win_hi")},
                  "played": pl.Boolean, "best": pl.Boolean}
        return pl.DataFrame(rows, schema=schema, orient="row")

    def curve(self) -> pl.DataFrame:
        """The chance to win at each decision, with the answer played: ``decision``,
        ``move``, ``seat``, ``win`` [``win_lo``, ``win_hi``], ``loss`` of the answer played."""
        t = self.table().filter(pl.col("played"))
        return t.select("decision", "move", "seat", "win", "win_lo", "win_hi", "loss")

    def metadata(self) -> dict[str, str]:
        """The Parquet key-value metadata: the run's identity and the header line."""
        from zipai_sim.runs.provenance import run_metadata

        h = self.record.header
        meta = run_metadata({"variants": [(self.variant.key, self.variant.rules_hash)],
                             "thresholds": [self.variant.win.threshold], "seed": self.seed,
                             "n": len(self.decisions), "n_requested": self.n_questions,
                             "partial": self.partial, "policies": [self.policy]})
        meta.update({"header": self.header, "unit": self.unit, "worlds": str(self.worlds),
                     "seats": ",".join(map(str, self.seats)), "record": self.record.source,
                     "record_seed": str(h["seed"]), "record_deal": str(h["deal"]),
                     "record_policies": ",".join(h["policies"])})
        return meta

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Write ``table()`` with ``metadata()`` (atomically, ``runs.io.write_parquet``)."""
        from zipai_sim.runs.io import write_parquet

        write_parquet(self.table(), path, self.metadata())

    def to_html(self, path: str | os.PathLike, lang: str | None = None,
                title: str | None = None):
        """Write the self-contained page that steps through the hand (``analysis.page``);
        returns its path. ``lang``: the page's words and pictures (default: the analysis's own
        ``lang``, in which its answers are labelled). Raises OSError naming the path."""
        from zipai_sim.analysis.steps import write_html

        return write_html(self, path, lang or self.lang, title)

    def costliest(self) -> Decision | None:
        """The decision whose answer played lost the most against the best (None: none)."""
        return max(self.decisions, key=lambda d: d.played.loss if d.played else 0.0,
                   default=None)

    def __str__(self) -> str:
        return "\n".join([self.header] + [str(d) for d in self.decisions])

    def __repr__(self) -> str:
        return f"Analysis({self.header})"

    def _repr_html_(self) -> str:
        """Jupyter: the header and one row per decision (the answer played, the best, the
        loss and the chance to win)."""
        import html

        rows = "".join(
            f"<tr><td>{d.index}</td><td>{d.question.seat}</td><td>{html.escape(d.question.kind)}"
            f"</td><td>{html.escape(d.played.answer) if d.played else ''}</td>"
            f"<td>{html.escape(d.best.answer)}</td><td>{d.played.loss if d.played else 0:.2f} "
            f"[{d.played.loss_lo if d.played else 0:.2f}, "
            f"{d.played.loss_hi if d.played else 0:.2f}]</td>"
            f"<td>{100 * (d.played or d.best).win:.1f}%</td></tr>" for d in self.decisions)
        return (f"<p><code>{html.escape(self.header)}</code></p><table><tr><th>#</th><th>seat"
                f"</th><th>question</th><th>played</th><th>best</th><th>loss ({self.unit})</th>"
                f"<th>win</th></tr>{rows}</table>")

    def __len__(self) -> int:
        return len(self.decisions)

    def __getitem__(self, i: int) -> Decision:
        return self.decisions[i]


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _seats(seat: int | Iterable[int] | None, n: int) -> list[int]:
    if seat is None:
        return list(range(n))
    seats = [seat] if _is_int(seat) else list(seat) if isinstance(seat, (list, tuple)) else [
        seat]
    if not seats or any(not _is_int(s) or not 0 <= s < n for s in seats):
        shown = seat[0] if isinstance(seat, (list, tuple)) and len(seat) == 1 else seat
        raise ValueError(f"seat must be a seat number 0..{n - 1} (or a list of them), got "
                         f"{shown!r}")
    return sorted({int(s) for s in seats})


def check_worlds(worlds: object) -> int:
    """``worlds`` as a count of worlds per question: an integer 2..MAX_WORLDS, else ValueError
    (one world gives no interval)."""
    if not _is_int(worlds) or not 2 <= worlds <= MAX_WORLDS:
        raise ValueError(f"worlds must be an integer 2..{MAX_WORLDS} (worlds per question; an "
                         f"interval needs two), got {worlds!r}")
    return int(worlds)


def check_policy(policy: object) -> int:
    """The kernel code of a playout bot name (``PLAYOUT_POLICIES``: a bot that does not itself
    search, since it plays inside every world), else ValueError naming the choices."""
    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"policy must be one of {list(PLAYOUT_POLICIES)} (the bot every seat "
                         f"plays on in the worlds), got {policy!r}")
    return POLICY_NAMES.index(policy)


def load_record(record: HandRecord | str | os.PathLike, hand: int | None = None) -> HandRecord:
    """``record`` itself, or record ``hand`` (0-based) of a JSON-lines file; ``hand`` may be
    left out when the file holds one. Raises RecordError, ValueError."""
    if hand is not None and not _is_int(hand):
        raise ValueError(f"hand must be a record number from 0, got {hand!r}")
    if isinstance(record, HandRecord):
        if hand not in (None, 0):
            raise ValueError(f"hand={hand} picks a record of a file; a HandRecord is one hand")
        return record
    if not isinstance(record, (str, os.PathLike)):
        raise ValueError(f"record must be a HandRecord or the path of a JSON-lines file, got "
                         f"{type(record).__name__}")
    recs = read_record(record)
    if hand is None and len(recs) > 1:
        raise ValueError(f"{os.fspath(record)} holds {len(recs)} hands: say which (hand=0.."
                         f"{len(recs) - 1}, or --hand on the command line)")
    i = 0 if hand is None else hand
    if not 0 <= i < len(recs):
        raise ValueError(f"hand must be 0..{len(recs) - 1}, got {hand}")
    return recs[i]


def analyze(record: HandRecord | str | os.PathLike, seat: int | Iterable[int] | None = None, *,
            hand: int | None = None, worlds: int = DEFAULT_WORLDS, policy: str = DEFAULT_POLICY,
            seed: int = DEFAULT_SEED, variant: str | os.PathLike | Variant | None = None,
            lang: str = "zh", progress: bool | None = None) -> Analysis:
    """Analyse every decision of the seats ``seat`` (one seat, a list, None: all) in a hand
    record (a ``HandRecord``, or a JSON-lines file and ``hand``, docs/records.md).

    Each question a seat answered in the turn loop (a discard with a choice, 碰, each 吃 with
    its 比, 胡 or not) gets every legal answer played out in ``worlds`` worlds (paired: the
    same worlds for every answer), the unseen cards redealt from what that seat had seen
    (never the hidden cards), every seat then playing ``policy``; values in the variant's unit
    (RULES.md §7). ``seed``: the worlds' seed (the same seed gives the same numbers, whatever
    the thread count). Wins offered at the deal (天胡, 地胡 on the 亮张, the two-提 extra card)
    are not valued: no play comes before them. Ctrl-C stops between batches of questions and
    returns what finished (``partial``). ``lang``: the answers' labels (zh/en).

    Raises ReplayError (the record does not replay), RecordError, VariantError, ValueError
    (a bad seat, worlds, policy, seed or hand)."""
    from zipai_sim.runs.driver import run_batches

    started = time.perf_counter()
    if lang not in ("zh", "en"):
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    worlds = check_worlds(worlds)
    code = check_policy(policy)
    seed = check_column_seed(seed, "an analysis")
    rec = load_record(record, hand)
    done = replay(rec, variant)
    v = done.variant
    seats = _seats(seat, v.layout.players)
    w = walk(rec, v, seats[0], lang)
    asked = [q for q in w.questions if q.seat in seats and q.start is not None]
    cache = OutcomeCache(v)

    def work(first: int, k: int) -> list[Decision]:
        got = question_values(v, asked[first:first + k], worlds, code, seed, cache)
        return [Decision(first + i, x.question, summarize(x)) for i, x in enumerate(got)]

    run = run_batches(len(asked), 1, BATCH, work, lambda s, got: s + got, [], unit="decision",
                      desc="analyze", progress=progress, kernels=(kr.playout_batch,))
    import numba

    return Analysis(rec, v, seats, worlds, policy, seed, run.state, w, len(asked), run.partial,
                    time.perf_counter() - started, lang, numba.get_num_threads())


def analyze_position(pos, variant: str | os.PathLike | Variant | None = None, *,
                     worlds: int = DEFAULT_WORLDS, policy: str = DEFAULT_POLICY,
                     seed: int = DEFAULT_SEED,
                     lang: str = "zh") -> Decision:
    """Value every answer of one typed decision (``analysis.position``: a ``Position`` or its
    text) as ``analyze`` values a recorded one; the rows' ``win``: the chance to win from
    there with that answer. Raises PositionError, ValueError, VariantError."""
    from zipai_sim.analysis.position import Position, position

    worlds = check_worlds(worlds)
    code = check_policy(policy)
    seed = check_column_seed(seed, "an analysis")
    if not isinstance(pos, Position):
        pos = position(pos, variant, lang=lang)
    elif variant is not None and load_variant(variant).rules_hash != pos.variant.rules_hash:
        raise ValueError(f"the position was typed under {pos.variant.key}; variant={variant!r} "
                         f"is another rule set (type the position under it)")
    x = question_values(pos.variant, [pos.question], worlds, code, seed)[0]
    return Decision(0, pos.question, summarize(x))
