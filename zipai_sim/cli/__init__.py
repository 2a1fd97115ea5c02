"""The ``zipai-sim`` command line (argparse). ``app`` builds the parser and dispatches
(``main``, ``run``); one module per command family (``hand``: hand, play, replay; ``hands``:
balance, match; ``table``; ``plot``; ``arena``; ``compare``; ``exact``) and the shared pieces
(``bounds``, ``checkpoint``, ``dask``, ``locks``, ``outputs``). Every error is one line on
stderr and exit 2."""

from zipai_sim.cli.app import main, run

__all__ = ["main", "run"]
