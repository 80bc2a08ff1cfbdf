"""The command side: deals created, joined and played, one conditional append per command, and the
clock keeper that acts for a seat whose time ran out (TB-2.5)."""
