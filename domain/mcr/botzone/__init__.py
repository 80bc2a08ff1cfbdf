"""Botzone's Chinese Standard Mahjong, our side of it, one module per role: ``codes`` (tile
codes, requests, the judge's words), ``referee`` (the judge's reading of a match, ``Referee``),
``tracker`` (one seat's view rebuilt from its request history, ``SeatTracker``), ``translation``
(our deals into Botzone matches and back: ``match_of_deal``, ``read_match``, ``play_match``) and
``program`` (a Botzone program seated at our tables).

The judge (github ``ailab-pku/Chinese-Standard-Mahjong``, ``judge/main.cpp``) is not our code and
none of it is here: ``Referee`` is our own statement of how that judge plays a match, written from
reading it, so that a match can be checked, replayed and translated without running it.

How the judge reads the rules, where it differs from ``mcr/2`` (``docs/botzone.md`` lists each with
our rule ids):

- the wall is cut into four equal parts, one per player; each player deals itself 13 tiles from
  the end of its own part and draws only from it (flowers and kong replacements too). There is no
  dealer: player 0 is East and draws first; player ``i`` sits in wind ``i`` (MC-2.3, MC-2.4);
- the deal is drawn when the player on turn has an empty part (MC-3.6), whatever is left in the
  other parts;
- a discard may be claimed for a chow, pung or kong only while the part of the player after the
  discarder still holds a tile (MC-3.7 reads the whole wall);
- a kong needs a tile in the kong player's own part and in the next player's part (MC-3.3);
- the last-tile fans (Last Tile Draw / Claim) apply when the part of the player after the one on
  turn (or after the discarder) is empty (MC-4.2 reads the whole wall);
- the Last Tile fan (the fourth copy) counts the copies it has shown: discards nobody claimed and
  claimed sets, not a concealed kong.

Everything here is pure: strings in, strings and engine records out.

The game registry (``service.app.games.botzone_game``) hands these modules to the command line
and the benches, which know no game by name; everyone imports from the module that holds a name.
"""
