"""The learned bot's weights (issue 47): one JSON file per variant, read once per process.

A weights file holds ``N_FEAT`` float weights of the learned value (``kernels.play.learned``
names the features) and the metadata of the run that fitted them: the variant and its rules
hash, the seed, hands and rounds, the held-out loss of each round and the arena figure reached
(``studies.train`` writes it; ``zipai-sim train`` reproduces a shipped file from its seed).

Files are looked up by the variant's key: first in the folder named by the environment
variable ``ZIPAI_SIM_WEIGHTS`` (where ``zipai-sim train --out`` files can be put to use), then
among the package's shipped files (``zipai_sim/weights/KEY.json``). A variant made from another
by knob overrides (``Variant.with_knobs``) keeps its key, and so the weights of its base rules.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.play import registry
from zipai_sim.play.files import locate
from zipai_sim.play.registry import names_text

#: the environment variable naming a folder of weights files searched before the shipped ones
ENV = "ZIPAI_SIM_WEIGHTS"

#: the features' names, in the order of their weights (``kernels.play.learned``)
FEATURES = ("one", "vw", "v1", "waits_any", "win_waits", "waits", "best_huxi", "locked_huxi",
            "huxi_short", "free", "lonely", "pairs", "stock", "vw_stock", "v1_stock",
            "locked_stock", "dealer", "after_dealer")
assert len(FEATURES) == kp.N_FEAT

#: the weights a training run starts from: lookahead's two values, a bonus for a hand that
#: waits on a win (what study's "vw first" ranking does), a little for pairs and against lonely
#: cards (study's shape); set by hand on seed 99, 2,000 decks of 八一 and 长沙 against study
_START = {"vw": 1.0, "v1": 1.0, "waits_any": 3.0, "lonely": -0.05, "pairs": 0.05}
START = tuple(_START.get(f, 0.0) for f in FEATURES)


def shipped_path(key: str) -> Path:
    """Where the package keeps variant ``key``'s weights file (it may not exist)."""
    return Path(str(resources.files("zipai_sim").joinpath("weights", f"{key}.json")))


def find(key: str) -> Path:
    """The weights file the learned bot reads for variant ``key``: ``$ZIPAI_SIM_WEIGHTS/KEY.json``
    if that exists, else the shipped one. Raises ValueError when neither exists, or when
    ``ZIPAI_SIM_WEIGHTS`` names no folder (a typo would otherwise play the shipped weights
    without a word)."""
    q = locate(ENV, f"{key}.json", shipped_path(key), "weights files (KEY.json, from "
               "`zipai-sim train --out`)")
    if q is not None:
        return q
    d = os.environ.get(ENV)
    where = f" (nor in ${ENV}={d})" if d else ""
    raise ValueError(f"no learned weights for variant {key!r}{where}: the learned bot needs "
                     f"them; fit them with `zipai-sim train --variant {key} --out "
                     f"DIR/{key}.json` and set {ENV}=DIR")


def read(path: str | Path) -> dict:
    """A weights file as a dict (``weights``: list of ``N_FEAT`` floats, ``features``, the
    metadata). Raises ValueError naming the file when it is not valid JSON, names other
    features, or holds a weight that is not a finite number."""
    path = Path(path)
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"weights file {path}: cannot be read as JSON ({e})") from None
    if not isinstance(d, dict):
        raise ValueError(f"weights file {path}: a JSON object expected")
    if tuple(d.get("features", ())) != FEATURES:
        raise ValueError(f"weights file {path}: its features {d.get('features')!r} are not "
                         f"this version's {list(FEATURES)}")
    if not _numbers(d.get("weights")):
        raise ValueError(f"weights file {path}: 'weights' must be {kp.N_FEAT} finite numbers")
    if "value" in d and not _numbers(d["value"]):
        raise ValueError(f"weights file {path}: 'value' must be {kp.N_FEAT} finite numbers")
    return d


def _numbers(w: object) -> bool:
    return (isinstance(w, list) and len(w) == kp.N_FEAT
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                    for x in w))


@lru_cache(maxsize=None)
def _file(path: str, mtime: float) -> dict:
    """``read(path)`` once per version of the file (its ``mtime``); callers only read it."""
    return read(path)


def _load(key: str, path: str, mtime: float) -> tuple[float, ...]:
    return tuple(float(x) for x in _file(path, mtime)["weights"])


def check_rules(path: Path, v) -> None:
    """Raise ValueError when weights file ``path`` was made for other rules than variant ``v``'s:
    its ``variant`` is not ``v.key``, or its ``rules_hash`` is neither ``v``'s, nor that of the
    shipped rule set of the same key (a variant made by knob or threshold overrides keeps its
    base's weights, module docstring), nor ``v``'s at the shipped threshold (a file fitted under
    overrides, played at another threshold). A file without the fields (hand-written)
    passes."""
    d = _file(str(path), path.stat().st_mtime)
    key, rules = d.get("variant"), d.get("rules_hash")
    if key is not None and key != v.key:
        raise ValueError(f"weights file {path} is for variant {key!r}, not {v.key!r}")
    if rules is None or rules == v.rules_hash:
        return
    base, threshold = _base_of(v.key)
    if rules == base:
        return
    if threshold is not None and threshold != v.win.threshold:
        try:  # a file fitted under knob overrides, played at another threshold of the same rules
            if v.with_threshold(threshold).rules_hash == rules:
                return
        except ValueError:
            pass
    raise ValueError(f"weights file {path} was fitted under other rules of {v.key} (rules "
                     f"hash {rules}, this variant's is {v.rules_hash}"
                     + (f", the shipped rule set's {base}" if base and base != v.rules_hash
                        else "")
                     + "): fit them again with `zipai-sim train`")


@lru_cache(maxsize=None)
def _base_of(key: str) -> tuple[str | None, int | None]:
    """The rules hash and 起胡 threshold of the shipped rule set ``key`` (None: none shipped)."""
    from zipai_sim.game.variants import list_variants, load_variant

    if key not in list_variants():
        return None, None
    base = load_variant(key)
    return base.rules_hash, base.win.threshold


def _load_value(key: str, path: str, mtime: float) -> tuple[float, ...] | None:
    d = _file(path, mtime)
    return tuple(float(x) for x in d["value"]) if "value" in d else None


_USING: dict[str, tuple[float, ...]] = {}


@contextmanager
def using(v, w) -> Iterator[None]:
    """Inside the block the learned bot of variant ``v`` (a ``Variant`` or its key) plays with
    the weights ``w`` (``N_FEAT`` floats) instead of its file: how a training run measures a
    fit before writing it. In this process only (not on Dask workers)."""
    key = v if isinstance(v, str) else v.key
    w = check(w, "weights")
    old = _USING.get(key)
    _USING[key] = w
    try:
        yield
    finally:
        if old is None:
            _USING.pop(key, None)
        else:
            _USING[key] = old


def check(w, what: str) -> tuple[float, ...]:
    """``w`` as ``N_FEAT`` finite floats; ValueError naming ``what`` otherwise."""
    a = np.asarray(w, np.float64).reshape(-1)
    if a.shape != (kp.N_FEAT,) or not np.isfinite(a).all():
        raise ValueError(f"{what} must be {kp.N_FEAT} finite numbers")
    return tuple(float(x) for x in a)


def weights(v) -> np.ndarray:
    """The learned weights of variant ``v`` (a ``Variant``): float64[N_FEAT], read once per
    process (and again only when the file changes; a ``using`` block's instead). Raises
    ValueError when there are none, the file is corrupt or was made for other rules (``find``,
    ``read``, ``check_rules``)."""
    if v.key in _USING:
        return np.array(_USING[v.key], np.float64)
    q = find(v.key)
    check_rules(q, v)
    return np.array(_load(v.key, str(q), q.stat().st_mtime), np.float64)


def value_weights(v) -> np.ndarray:
    """The cut value of variant ``v``'s search (``kernels.play.search``): float64[N_FEAT], the
    weights file's ``value`` (the learned features fitted to self-play payments, the variant's
    unit a hand; ``studies.value``), read once per process. Raises ValueError when the file has
    none (``zipai-sim train --labels value`` fits it) or is missing or corrupt."""
    q = find(v.key)
    check_rules(q, v)
    w = _load_value(v.key, str(q), q.stat().st_mtime)
    if w is None:
        cutting = names_text(tuple(b.name for b in registry.BOTS if b.cuts))
        raise ValueError(f"weights file {q} has no cut value ('value'): the {cutting} "
                         f"bots need it; fit it with `zipai-sim train --variant {v.key} "
                         f"--labels value --out {q.name}`")
    return np.array(w, np.float64)


#: kernel codes whose seats play by the learned weights (their own answers, or their worlds)
LEARNED_CODES = registry.LEARNED_CODES


def weights_hash(v, policies, given=None) -> str | None:
    """16 hex digits naming the weights a line-up of variant ``v`` plays with: sha256 over the
    distinct learned weight vectors its seats read (``play.registry``: learned, search,
    oracle; ``given[i]`` (``N_FEAT`` floats) instead of the file's for ``policies[i]`` where a
    caller passed its own), and the cut value where a seat cuts short (search, oracle). Which
    seat plays which bot is the identity's ``policies``: the same weights give the same hash
    in every line-up that reads only them. None when no seat reads weights (random, greedy,
    lookahead, study … and batch policies, named by their own fingerprint). A neural seat
    adds its model's hash (``play.neural``). A run's identity,
    header and metadata carry it, so changed weights never resume another's checkpoint
    (issue 55). Raises ValueError as ``weights`` does."""
    import hashlib

    vectors, cut = set(), False
    for i, p in enumerate(policies):
        if isinstance(p, str) and p in registry.POLICY_NAMES and registry.bot(p).model:
            from zipai_sim.play.neural import model

            vectors.add(b"model " + model(v).hash.encode())
            continue
        if not (isinstance(p, str) and p in registry.POLICY_NAMES and registry.bot(p).weights):
            continue
        w = given[i] if given is not None and given[i] is not None else weights(v)
        vectors.add(np.asarray(w, np.float64).tobytes())
        cut = cut or registry.bot(p).cuts
    if not vectors:
        return None
    h = hashlib.sha256()
    for w in sorted(vectors):
        h.update(w)
    if cut:
        h.update(b"cut value")
        h.update(value_weights(v).tobytes())
    return h.hexdigest()[:16]


def lineup_weights(variants, policies, given=None) -> list[str | None] | None:
    """One ``weights_hash`` per variant for a run's identity (its ``weights_hash`` key) and
    header (``weights``), or None when no seat reads weights (the identity of such a run is
    unchanged, so its stored checkpoints resume). ``policies``: one bot name or batch policy,
    one line-up, or one line-up per variant (a list of lists)."""
    if isinstance(policies, (list, tuple)) and policies and isinstance(policies[0],
                                                                         (list, tuple)):
        per = list(policies)
    else:
        per = [list(policies) if isinstance(policies, (list, tuple)) else [policies]
               ] * len(variants)
    hs = [weights_hash(v, p, given) for v, p in zip(variants, per)]
    return hs if any(hs) else None


def weights_for(v, codes) -> np.ndarray:
    """Each seat's weights row for a line-up (kernel codes): float64[MAX_SEATS, W_COLS], the
    variant's ``weights(v)`` in the first ``N_FEAT`` columns of ``learned``, ``search`` and
    ``oracle`` seats, the variant's network (``play.neural.model``, its ``row()``) in the rows
    of ``neural`` seats, zeros elsewhere (no file is read without a seat that reads it)."""
    out = np.zeros((kp.MAX_SEATS, kp.W_COLS), np.float64)
    codes = np.asarray(codes)
    mine = np.isin(codes, LEARNED_CODES)
    if mine.any():
        out[:len(codes), :kp.N_FEAT][mine] = weights(v)
    net = np.isin(codes, registry.MODEL_CODES)
    if net.any():
        from zipai_sim.play.neural import model

        out[:len(codes)][net] = model(v).row()
    return out


def write(path: str | Path, v, w, meta: dict) -> Path:
    """Write a weights file for variant ``v``: ``w`` (``N_FEAT`` floats, written exactly: JSON
    keeps the shortest repr of a double) and ``meta`` (JSON-able)."""
    path = Path(path)
    d = {"variant": v.key, "rules_hash": v.rules_hash, "features": list(FEATURES),
         "weights": [float(x) for x in w], **meta}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(d, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path
