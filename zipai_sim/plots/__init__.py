"""Figures of saved results (matplotlib): the figure helpers (``figures``), their drawing pieces
(``draw``), labels in English and Chinese (``labels``), the runs a figure draws (``runs``), its
provenance footer (``footer``), reading results (``load``), saving a figure with its metadata
(``save``), the sweep figure (``sweep``) and the Chinese font (``fonts``)."""

from zipai_sim.plots.figures import (
    PLOTS,
    load_result,
    plot_convergence,
    plot_dealer_edge,
    plot_fanxing,
    plot_huxi_distribution,
    plot_score_distribution,
    plot_seat_shares,
    plot_sweep,
    plot_tianhu_threshold,
    read_figure_metadata,
    save_figure,
)

__all__ = [
    "PLOTS",
    "load_result",
    "plot_convergence",
    "plot_dealer_edge",
    "plot_fanxing",
    "plot_huxi_distribution",
    "plot_score_distribution",
    "plot_seat_shares",
    "plot_sweep",
    "plot_tianhu_threshold",
    "read_figure_metadata",
    "save_figure",
]
