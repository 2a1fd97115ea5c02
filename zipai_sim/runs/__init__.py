"""The run model every long job shares: chunks and their seeds (``chunks``), the driver that runs
chunks in parallel, in order, interruptibly (``driver``), checkpoints and resume
(``checkpoint``), Parquet/text output (``io``) and the provenance every result carries
(``provenance``). Results never depend on the thread count."""
