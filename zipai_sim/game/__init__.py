"""The game itself, below every other part of the package (RULES.md §1–§8):

- cards and their notation (``cards``);
- rule sets: the schema of a TOML file (``sections``, ``knobs``), the frozen ``Variant`` and its
  rules hash (``ruleset``), loading and checking files (``variants``; the shipped files are
  ``zipai_sim/rules/*.toml``), listing and describing them (``variant_tables``), and the plain
  tuple of numbers the kernels read (``params``);
- settlement: a finished hand (``hand_result``), its checks (``settle_checks``), 名堂
  (``mingtang``), one hand settled (``settle``) and kernel outcome rows settled at once
  (``settle_batch``);
- the slow, readable pure-Python reference of the kernels (``reference``) and small-file reading
  (``files``).
"""
