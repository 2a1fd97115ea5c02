"""The neural bot's model files (issue 58): one ``.npz`` file per variant, read once per process.

A model file holds the network of ``kernels.play.neural`` as float32 arrays — ``linear``
(``N_FEAT``: the linear part over learned's features), ``w1`` (``N_IN × H1``), ``b1``, ``w2``
(``H1 × H2``), ``b2``, ``w3`` (``H2``), ``b3``, ``ys`` (the output scale, the variant's unit:
舵, 囤, 油 …) — and ``meta``, a JSON text: the variant and its rules hash, the layout version
(``LAYOUT``: the input and layer sizes), the command, seed, hands, rounds, losses and the
arena figures of the run that trained it (``studies.neural`` writes it; ``zipai-sim train
--bot neural`` reproduces a shipped file from its command).

Files are looked up by the variant's key: first in the folder named by ``ZIPAI_SIM_MODELS``,
then among the shipped files (``zipai_sim/models/KEY.npz``). A model's ``hash`` (sha256 of its
arrays, 16 hex digits) is in the identity, header and metadata of every run a neural seat plays
(``play.learned.weights_hash``).
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.play.files import locate

#: the environment variable naming a folder of model files searched before the shipped ones
ENV = "ZIPAI_SIM_MODELS"
#: what a model's arrays must fit: the inputs and the two hidden layers
LAYOUT = {"n_ctx": kp.N_CTX, "n_opt": kp.N_OPT, "n_feat": kp.N_FEAT, "h1": kp.H1, "h2": kp.H2}
_SHAPES = {"linear": (kp.N_FEAT,), "w1": (kp.N_IN, kp.H1), "b1": (kp.H1,),
           "w2": (kp.H1, kp.H2), "b2": (kp.H2,), "w3": (kp.H2,), "b3": (), "ys": ()}


@dataclass
class Model:
    """A network of the neural value (module docstring): float32 arrays of ``_SHAPES``'s
    shapes, and its ``meta`` (a JSON-able dict)."""

    linear: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray
    ys: np.ndarray
    meta: dict = field(default_factory=dict)

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(getattr(self, k), np.float32).reshape(s) for k, s in
                _SHAPES.items()}

    @property
    def hash(self) -> str:
        """16 hex digits of sha256 over the arrays (their float32 bytes, in ``_SHAPES`` order)."""
        h = hashlib.sha256()
        for k, a in self.arrays().items():
            h.update(k.encode())
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()[:16]

    def row(self, eps: float = 0.0) -> np.ndarray:
        """The seat's weights row the kernel reads: float64[W_COLS] (``kernels.play.layout``
        ``NT_*``), exploring with chance ``eps`` (training only)."""
        a = self.arrays()
        r = np.zeros(kp.W_COLS, np.float64)
        r[:kp.N_FEAT] = a["linear"]
        n = kp.N_FEAT
        r[n + kp.NT_W1:n + kp.NT_B1] = a["w1"].reshape(-1)
        r[n + kp.NT_B1:n + kp.NT_W2] = a["b1"]
        r[n + kp.NT_W2:n + kp.NT_B2] = a["w2"].T.reshape(-1)  # by output: W2[j, q] at q·H1 + j
        r[n + kp.NT_B2:n + kp.NT_W3] = a["b2"]
        r[n + kp.NT_W3:n + kp.NT_B3] = a["w3"]
        r[n + kp.NT_B3] = a["b3"]
        r[n + kp.NT_YS] = a["ys"]
        r[n + kp.NT_EPS] = eps
        r[n + kp.NT_ON] = 1.0
        return r

    def save(self, path: str | Path) -> Path:
        """Write the model to ``path`` (``.npz``; its folder is made)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {**self.meta, "layout": LAYOUT, "hash": self.hash}
        with open(path, "wb") as f:
            np.savez(f, meta=np.array(json.dumps(meta, ensure_ascii=False)), **self.arrays())
        return path


def read(path: str | Path) -> Model:
    """The model in file ``path``. Raises ValueError naming the file when it is not a model
    file, misses an array, has an array of another shape (another layout: a file from another
    version), a number that is not finite, or a hash that does not match its arrays."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            got = {k: z[k] for k in z.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise ValueError(f"model file {path}: cannot be read as a model (.npz) file ({e})"
                         ) from None
    missing = [k for k in (*_SHAPES, "meta") if k not in got]
    if missing:
        raise ValueError(f"model file {path}: no {', '.join(missing)} array")
    try:
        meta = json.loads(str(got["meta"]))
    except json.JSONDecodeError as e:
        raise ValueError(f"model file {path}: its meta is not JSON ({e})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"model file {path}: its meta is not a JSON object")
    for k, shape in _SHAPES.items():
        a = got[k]
        if a.shape != shape:
            raise ValueError(f"model file {path}: {k} has shape {a.shape}, this version's "
                             f"network needs {shape} (layout {LAYOUT}; the file says "
                             f"{meta.get('layout')}): train it again with this version")
        if not np.isfinite(a).all():
            raise ValueError(f"model file {path}: {k} holds a number that is not finite")
    m = Model(**{k: got[k].astype(np.float32) for k in _SHAPES}, meta=meta)
    if "hash" in meta and meta["hash"] != m.hash:
        raise ValueError(f"model file {path}: its arrays do not match the hash it records "
                         f"({meta['hash']}, the arrays give {m.hash}): the file is damaged")
    return m


def shipped_path(key: str) -> Path:
    """Where the package keeps variant ``key``'s model file (it may not exist)."""
    return Path(str(resources.files("zipai_sim").joinpath("models", f"{key}.npz")))


def find(key: str) -> Path:
    """The model file the neural bot reads for variant ``key``: ``$ZIPAI_SIM_MODELS/KEY.npz``
    if that exists, else the shipped one. Raises ValueError when neither exists or when
    ``ZIPAI_SIM_MODELS`` names no folder."""
    q = locate(ENV, f"{key}.npz", shipped_path(key), "model files (KEY.npz, from `zipai-sim "
               "train --bot neural --out`)")
    if q is not None:
        return q
    d = os.environ.get(ENV)
    where = f" (nor in ${ENV}={d})" if d else ""
    raise ValueError(f"no neural model for variant {key!r}{where}: the neural bot needs one; "
                     f"train it with `zipai-sim train --variant {key} --bot neural --out "
                     f"DIR/{key}.npz` and set {ENV}=DIR")


@lru_cache(maxsize=None)
def _file(path: str, mtime: float) -> Model:
    return read(path)


_USING: dict[str, Model] = {}


def model(v) -> Model:
    """The neural model of variant ``v`` (a ``Variant``), read once per process (and again
    when the file changes; a ``using`` block's instead). Raises ValueError when there is none,
    the file is damaged, or it was trained for another variant or other rules."""
    if v.key in _USING:
        return _USING[v.key]
    q = find(v.key)
    m = _file(str(q), q.stat().st_mtime)
    key, rules = m.meta.get("variant"), m.meta.get("rules_hash")
    if key is not None and key != v.key:
        raise ValueError(f"model file {q} is for variant {key!r}, not {v.key!r}")
    if rules is not None and rules != v.rules_hash:
        if rules != _base_rules(v.key):
            raise ValueError(f"model file {q} was trained under other rules of {v.key} (rules "
                             f"hash {rules}, this variant's is {v.rules_hash}): train it again "
                             f"with `zipai-sim train --bot neural`")
    return m


@lru_cache(maxsize=None)
def _base_rules(key: str) -> str | None:
    """The rules hash of the shipped rule set ``key`` (None: none shipped): a variant made by knob
    overrides keeps its base's model, as it keeps its base's learned weights."""
    from zipai_sim.game.variants import list_variants, load_variant

    return load_variant(key).rules_hash if key in list_variants() else None


class using:
    """Inside ``with using(v, m):`` the neural bot of variant ``v`` (a ``Variant`` or key) plays
    the ``Model`` ``m`` instead of its file (how training measures a network before writing
    it); this process only."""

    def __init__(self, v, m: Model):
        self.key = v if isinstance(v, str) else v.key
        self.m = m

    def __enter__(self) -> None:
        self.old = _USING.get(self.key)
        _USING[self.key] = self.m

    def __exit__(self, *exc) -> None:
        if self.old is None:
            _USING.pop(self.key, None)
        else:
            _USING[self.key] = self.old
