"""The game itself: cards (``cards``), rule sets as TOML (``variants``, ``knobs``, ``rules/``),
the plain tuple of numbers the kernels read (``params``), settlement (``settle``) and the slow,
readable pure-Python reference of the kernels (``reference``). Imports nothing else of the
package: every other layer builds on it (RULES.md §1–§8)."""
