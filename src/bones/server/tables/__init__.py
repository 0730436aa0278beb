"""The tables: a table's model (seats, clock, rematch, its log) and their owner in this
process (the lock, the write, the broadcast, bots' turns, clocks and absences)."""
