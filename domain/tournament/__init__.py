"""Tournaments (docs/rules/tournament.md, TN-1..TN-5): pure, no I/O and no clock.

A tournament is its own hash-chained log (``events``, ``log``); its state and standings are a
fold of that log (``state``, ``scores``); the round seeds, draws and duplicate boards come from
``seeds``; the pairing from ``pairing``; the next thing to append from ``plan``; and ``verify``
checks an exported bundle offline.
"""
