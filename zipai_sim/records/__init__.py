"""Hand records (JSON lines, docs/records.md): the format and its events (``format``), reading
and writing files (``file``), building a record from either engine's hand (``build``) and
replaying one move by move through the reference engine (``replay``). Records depend on the
play engine, never the reverse."""
