"""Figures of saved results (matplotlib): the figure helpers (``figures``), their drawing pieces
(``draw``), labels in English and Chinese (``labels``), the runs a figure draws (``runs``), its
provenance footer (``footer``), reading results (``load``), saving a figure with its metadata
(``save``), the sweep figure (``sweep``), the win-chance figure of an analysed hand
(``win_chance``) and the Chinese font (``fonts``). The package exports what ``figures`` does
(its ``__all__``)."""

from zipai_sim.plots import figures
from zipai_sim.plots.figures import *  # noqa: F403  (one list of the public figures: figures.__all__)

__all__ = figures.__all__
