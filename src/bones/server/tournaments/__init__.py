"""Tournaments: how an arena scores and pairs (``arena``), how a Swiss pairs its rounds
and breaks its ties (``swiss``), and how a duplicate's boards are moved round the tables
and compared (``duplicate``). These are the rules of each format, as plain functions of
the standings, which the tournament's runner keeps in the store."""
