"""Pure game rules: cards, commands, events, aggregates. No I/O, no wall clock, no unseeded randomness."""
