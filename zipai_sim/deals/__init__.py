"""Opening deals: dealing reproducible decks (``deal``), evaluating hands and their 胡息
(``evaluate``) and running millions of deals for 天胡/地胡/翻信 rates (``simulate``), on the
numba kernels of ``zipai_sim.kernels`` (RULES.md §3, §4, §6)."""
