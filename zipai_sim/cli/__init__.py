"""The ``zipai-sim`` command line (argparse): ``main`` parses and dispatches, one module per
command family (``arena``, ``compare``, ``hands``, ``table``) and the shared pieces (``bounds``,
``checkpoint``, ``dask``, ``locks``, ``outputs``). Every error is one line on stderr and exit 2."""

from zipai_sim.cli.main import main, run

__all__ = ["main", "run"]
