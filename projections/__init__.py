"""Pure folds of events into views: seat view, public table, replay frames, claim audit.

Imports ``domain`` only. One subpackage per game, each exposing the same functions.
"""
