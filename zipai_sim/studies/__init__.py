"""Studies of whole hands on the play engines: the balance study (``balance``,
``balance_rows``), matches (``match``, ``match_result``), the duplicate arena of bots
(``arena``) and paired comparisons of rule variants (``compare``) (RULES.md §5–§7)."""
