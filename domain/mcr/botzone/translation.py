"""Our deals as Botzone matches (``match_of_deal``) and Botzone matches as our deals
(``read_match``, ``play_match``), each checked by the judge's reading (``Referee``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import RuleViolation
from domain.mcr.botzone.codes import (
    HAND,
    MAX_RESPONSE,
    SEATS,
    BotzoneError,
    Ids,
    NotTranslatable,
    code_of,
    is_flower_code,
    judge_text,
)
from domain.mcr.botzone.referee import Outcome, Penalty, Referee, Step
from domain.mcr.messages import (
    AddedKongDeclared,
    ConcealedKongDeclared,
    DealStarted,
    Discard,
    FlowerReplaced,
    HandWon,
    SetClaimed,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WallExhausted,
)
from domain.mcr.queries import legal_actions
from domain.mcr.state import State
from domain.mcr.tiles import FIRST_FLOWER

GAME_NAME = "Chinese-Standard-Mahjong"


def _play_actions(events: Sequence[Any]) -> list[tuple]:
    out: list[tuple] = []
    for e in events:
        t = type(e)
        if t is TileDiscarded:
            out.append(("PLAY", e.seat, code_of(e.tile)))
        elif t is SetClaimed:
            mid = code_of(sorted(e.tiles)[1])
            out.append(("CLAIM", e.seat, e.meld, mid, e.from_seat))
        elif t is ConcealedKongDeclared:
            out.append(("GANG", e.seat, code_of(e.tiles[0])))
        elif t is AddedKongDeclared:
            out.append(("BUGANG", e.seat, code_of(e.tile)))
        elif t is HandWon:
            out.append(("HU", e.seat, e.self_drawn, e.robbing_kong))
    return out


def _received(events: Sequence[Any], dealer: int) -> list[list[int]]:
    """Each judge player's tiles in the order the judge hands them out: the deal (its flowers,
    then its 13 tiles, each sorted: the judge shows a hand, not an order; player 0 then the tile
    our dealer "drew", its 14th), then every draw and replacement of the play."""
    dealt: list[list[int]] = [[] for _ in range(SEATS)]
    later: list[list[int]] = [[] for _ in range(SEATS)]
    in_deal = True
    drawn = None  # the dealer's tile in hand as its turn begins (MC-2.4), as the engine tracks it
    for e in events:
        t = type(e)
        if t is TilesDealt:
            dealt[(e.seat - dealer) % SEATS] += e.tiles
            if e.seat == dealer:
                drawn = e.tiles[-1]
        elif t is FlowerReplaced:
            if e.replacement is None:
                raise NotTranslatable("a flower found no replacement at the wall's end")
            (dealt if in_deal else later)[(e.seat - dealer) % SEATS].append(e.replacement)
            if in_deal and e.seat == dealer and e.flower == drawn:
                drawn = e.replacement
        elif t is TileDrawn:
            in_deal = False
            later[(e.seat - dealer) % SEATS].append(e.tile)
        elif t in (TileDiscarded, ConcealedKongDeclared, HandWon):
            in_deal = False
    out = []
    for j in range(SEATS):
        flowers = sorted(x for x in dealt[j] if x >= FIRST_FLOWER)
        tiles = [x for x in dealt[j] if x < FIRST_FLOWER]
        first = []
        if j == 0:
            tiles.remove(drawn)
            first = [drawn]
        out.append(flowers + sorted(tiles) + first + later[j])
    return out


def match_of_deal(events: Sequence[Any], deal_id: str = "") -> dict[str, Any]:
    """A finished MCR deal as a Botzone match the judge replays: ``initdata`` (the wall, cut into
    the four players' parts, and the prevailing wind ``quan``) and ``log`` (each round: the
    judge's requests, then every player's response; last the judge's finish). Judge player ``j``
    is our seat ``(dealer + j) % 4``. Raises ``NotTranslatable`` when the judge would not play the
    deal as it was played (a player took more than its part, or the rules at the wall's end)."""
    started = next((e for e in events if type(e) is DealStarted), None)
    if started is None or not any(type(e) in (HandWon, WallExhausted) for e in events):
        raise NotTranslatable("only a finished deal becomes a match")
    dealer = started.dealer
    seqs = _received(events, dealer)
    size = 36
    for j, seq in enumerate(seqs):
        if len(seq) > size:
            raise NotTranslatable(
                f"judge player {j} (our seat {(dealer + j) % SEATS}) took {len(seq)} tiles;"
                f" the judge's part of a 144-tile wall holds {size}"
            )
    used = {t for seq in seqs for t in seq}
    rest = [t for t in range(FIRST_FLOWER + 8) if t not in used]  # by kind: a match exports the same
    wall: list[str] = []
    for seq in seqs:  # the judge takes from the end of each part
        fill = [rest.pop(0) for _ in range(size - len(seq))]
        wall += [code_of(t) for t in [*fill, *reversed(seq)]]
    quan = started.prevailing_wind
    ref = Referee(wall, quan)
    acts = _play_actions(events)
    seat_of = lambda j: (dealer + j) % SEATS  # noqa: E731
    player = lambda seat: (seat - dealer) % SEATS  # noqa: E731
    log: list[Any] = []
    i = 0
    while ref.outcome is None:
        reqs = ref.requests()
        log.append({"output": {"command": "request", "content": {str(j): r for j, r in enumerate(reqs)}}})
        ans = ["PASS"] * SEATS
        st = ref.stage
        nxt = acts[i] if i < len(acts) else None
        if 0 <= st < 4 and ref.last_op == "DRAW":
            if nxt is None or player(nxt[1]) != st or nxt[0] not in ("PLAY", "GANG", "BUGANG", "HU"):
                raise NotTranslatable(
                    f"round {len(ref.rounds)}: the judge has player {st} draw"
                    f" (our seat {seat_of(st)}), the deal does not"
                )
            ans[st] = "HU" if nxt[0] == "HU" else f"{nxt[0]} {nxt[2]}"
            i += 1
        elif 4 <= st < 8 and nxt is not None:
            if nxt[0] == "CLAIM" and player(nxt[4]) == st % 4:
                q = player(nxt[1])
                if nxt[2] == "kong":
                    ans[q] = "GANG"
                    i += 1
                else:
                    after = acts[i + 1] if i + 1 < len(acts) else None
                    if after is None or after[0] != "PLAY" or after[1] != nxt[1]:
                        raise NotTranslatable(f"our seat {nxt[1]} claimed a {nxt[2]} and did not discard")
                    ans[q] = f"PENG {after[2]}" if nxt[2] == "pung" else f"CHI {nxt[3]} {after[2]}"
                    i += 2
            elif nxt[0] == "HU" and not nxt[2] and not nxt[3]:
                ans[player(nxt[1])] = "HU"
                i += 1
        elif st >= 8 and nxt is not None and nxt[0] == "HU" and nxt[3]:
            ans[player(nxt[1])] = "HU"
            i += 1
        log.append({str(j): {"verdict": "OK", "response": a} for j, a in enumerate(ans)})
        try:
            ref.respond(ans)
        except Penalty as p:
            raise NotTranslatable(
                f"the judge would punish our seat {seat_of(p.seat)} ({p.code}): {p.reason}"
            ) from None
    out = ref.outcome
    won = next((e for e in events if type(e) is HandWon), None)
    if out.kind == "PENALTY":
        raise NotTranslatable(
            f"the judge would punish our seat {seat_of(out.seat)} ({out.code}): {out.reason}"
        )
    if (
        (out.kind == "HU") != (won is not None)
        or (won is not None and seat_of(out.seat) != won.seat)
        or i != len(acts)
    ):
        ending = "a win" if won is not None else "an exhausted wall"
        raise NotTranslatable(f"the judge ends the deal differently ({out.kind}) from ours ({ending})")
    log.append(
        {
            "output": {
                "command": "finish",
                "content": {str(j): out.scores[j] for j in range(SEATS)},
                "display": {"action": out.kind, "player": out.seat, "fanCnt": out.fan},
            }
        }
    )
    return {
        "game": GAME_NAME,
        "initdata": {"srand": 0, "quan": quan, "walltiles": " ".join(wall)},
        "log": log,
        "dealstream": {"deal_id": deal_id, "dealer": dealer, "ruleset": "mcr/2"},
    }


@dataclass
class ImportedDeal:
    """What an imported match gives our engine: the deck and dealer our ``mcr/2`` deal is dealt
    from, its prevailing wind, and the judge rounds to translate into commands."""

    deck: list[int]
    dealer: int
    quan: int
    rounds: list[tuple[int, str, list[str]]]
    outcome: Outcome
    steps: list[Step] = field(default_factory=list)


def _answers_of(entry: Any, where: str) -> list[str]:
    if not isinstance(entry, dict):
        raise BotzoneError(where, "a responses entry is an object of the four players' answers")
    out = []
    for j in range(SEATS):
        r = entry.get(str(j))
        if isinstance(r, dict):
            if r.get("verdict", "OK") != "OK":
                raise BotzoneError(f"{where}, seat {j}", f"the judge recorded verdict {r.get('verdict')!r}")
            r = r.get("response")
        if not isinstance(r, str):
            raise BotzoneError(f"{where}, seat {j}", "no response string")
        if len(r) > MAX_RESPONSE:
            raise BotzoneError(f"{where}, seat {j}", f"a response of {len(r)} characters")
        out.append(r)
    return out


def read_match(match: Any) -> ImportedDeal:
    """Check a Botzone match by the judge's reading and work out the deal it is for ``mcr/2``:
    the deck our single wall must hold so that every seat is dealt and draws what the judge gave
    it (draws from the front, flower and kong replacements from the back), and the dealer
    (``dealstream.dealer`` if the match came from us, else seat 0). ``BotzoneError`` names the
    log entry or the seat of anything wrong."""
    if not isinstance(match, dict):
        raise BotzoneError("match", "a match is a JSON object with 'initdata' and 'log'")
    log = match.get("log")
    if not isinstance(log, list) or not log:
        raise BotzoneError("match", "no 'log' list")
    init = match.get("initdata")
    if not isinstance(init, dict) and isinstance(log[0], dict):
        init = (log[0].get("output") or {}).get("initdata")
    if not isinstance(init, dict) or not isinstance(init.get("walltiles"), str) or not init["walltiles"]:
        raise BotzoneError("initdata", "no 'walltiles': the wall the judge dealt is not in the match")
    quan = init.get("quan", 0)
    if not isinstance(quan, int):
        raise BotzoneError("initdata quan", "the prevailing wind is an integer 0..3")
    extra = match.get("dealstream") or {}
    dealer = extra.get("dealer", 0) if isinstance(extra, dict) else 0
    if not isinstance(dealer, int) or not 0 <= dealer < SEATS:
        raise BotzoneError("dealstream dealer", "the dealer is a seat 0..3")
    ref = Referee(init["walltiles"], quan)
    n = 0
    for k in range(1, len(log), 2):
        where = f"log entry {k}"
        answers = _answers_of(log[k], where)
        if ref.outcome is not None:
            raise BotzoneError(where, "responses after the end of the match")
        try:
            ref.respond(answers)
        except Penalty as p:
            raise BotzoneError(
                f"{where}, seat {p.seat}", f"the judge punishes this response ({p.code}): {p.reason}"
            ) from None
        n = k
    if ref.outcome is None:
        raise BotzoneError(
            f"log entry {n + 2}", "the match is truncated: the judge still waits for responses"
        )
    if ref.outcome.kind == "PENALTY":
        raise BotzoneError(f"seat {ref.outcome.seat}", f"the match ended in a penalty ({ref.outcome.reason})")
    return ImportedDeal(_deck_for(ref, dealer), dealer, quan, ref.rounds, ref.outcome, ref.steps)


def _deck_for(ref: Referee, dealer: int) -> list[int]:
    """Our deck: front = the deal in our order (dealer 14, then 13 each) and every turn's draw;
    back (read from the end) = the deal's flower replacements, then kong and flower replacements."""
    ids = Ids()
    deal: list[list[str]] = [[] for _ in range(SEATS)]
    flowers: list[list[str]] = [[] for _ in range(SEATS)]
    steps = ref.steps
    # the hands dealt: re-deal the wall parts as the judge does
    parts = [list(p) for p in ref.initial_parts]
    for j in range(SEATS):
        while len(deal[j]) < HAND:
            t = parts[j].pop()
            (flowers[j] if is_flower_code(t) else deal[j]).append(t)
    front: list[str] = []
    back: list[str] = []
    draws = [
        s for s in steps if s.kind in ("draw", "flower", "angang", "bugang", "gang", "play", "peng", "chi")
    ]
    # player 0's first draw (and any flowers before it) belongs to our dealer's 14 tiles
    k = 0
    while k < len(draws) and draws[k].kind == "flower" and draws[k].seat == 0:
        flowers[0].append(draws[k].tile)
        k += 1
    if k < len(draws) and draws[k].kind == "draw" and draws[k].seat == 0:
        deal[0].append(draws[k].tile)
        k += 1
    dealt_front: list[list[str]] = []
    deal_back: list[str] = []
    for j in range(SEATS):  # the dealer's 14th tile stays last: it is the tile it "drew"
        first = deal[j][HAND:]
        keep = HAND - len(flowers[j])
        dealt_front.append(flowers[j] + deal[j][:keep] + first)
        deal_back += deal[j][keep:HAND]
    front = [t for hand in dealt_front for t in hand]
    back = list(deal_back)
    from_back = [False] * SEATS
    for s in draws[k:]:
        if s.kind in ("draw", "flower"):
            (back if from_back[s.seat] else front).append(s.tile)
            from_back[s.seat] = s.kind == "flower" or (from_back[s.seat] and s.kind == "flower")
        else:
            from_back[s.seat] = s.kind in ("angang", "bugang", "gang")
    # flowers are replaced from the back within a draw; a flower drawn after a kong stays at the back
    if len(front) + len(back) > FIRST_FLOWER + 8:
        raise BotzoneError("initdata walltiles", "more tiles drawn than a deck holds")
    front_ids = [ids.take(c, "initdata walltiles") for c in front]
    back_ids = [ids.take(c, "initdata walltiles") for c in back]
    taken = set(front_ids) | set(back_ids)
    middle = [t for t in range(FIRST_FLOWER + 8) if t not in taken]
    return front_ids + middle + list(reversed(back_ids))


def command_for(s: State, seat: int, text: str, where: str) -> Any:
    """The engine command among ``seat``'s legal ones meaning the judge response ``text``."""
    card = s.window.card if s.window is not None else None
    legal = legal_actions(s, seat)
    found = [a for a in legal if judge_text(a, card) == text]
    if s.phase == "turn" and s.last_tile is not None:
        found.sort(key=lambda a: 0 if type(a) is Discard and a.tile == s.last_tile else 1)
    if not found:
        raise NotTranslatable(f"{where}: mcr/2 has no legal move for seat {seat}'s {text!r} now")
    return found[0]


def play_match(
    imp: ImportedDeal, state: State, execute: Any, on_command: Any = None
) -> list[tuple[Any, list[Any]]]:
    """The commands of an imported match, decided one by one by our engine (``execute(state,
    command) -> (events, state)``, which refuses an illegal one with ``RuleViolation``) from the
    state its ``DealCreated`` gives: [(command, events)], the ``StartDeal`` first. Where ``mcr/2``
    would not play as the judge did, ``NotTranslatable`` names the log entry and the seat."""
    from domain.game import StartDeal

    batches: list[tuple[Any, list[Any]]] = []
    d = imp.dealer

    def run(cmd: Any, where: str) -> None:
        nonlocal state
        if on_command is not None:
            on_command(r, cmd, state)
        try:
            events, state = execute(state, cmd)
        except RuleViolation as exc:
            who = getattr(cmd, "seat", "?")
            raise NotTranslatable(
                f"{where}: mcr/2 refuses seat {who}'s move ({exc.rule_id}: {exc.message})"
            ) from None
        batches.append((cmd, events))

    r = 1
    run(StartDeal(seat=d, client_seed=""), "the deal")
    for r, (stage, last_op, answers) in enumerate(imp.rounds[2:], start=2):
        where = f"log entry {2 * r + 1}"
        by_seat = {(d + j) % SEATS: a for j, a in enumerate(answers)}
        if state.phase == "over":
            raise NotTranslatable(f"{where}: the judge plays on after mcr/2 ended the deal")
        if 0 <= stage < 4 and last_op == "BUHUA":
            continue
        if 0 <= stage < 4:
            seat = (d + stage) % SEATS
            if state.phase != "turn" or state.turn != seat:
                raise NotTranslatable(
                    f"{where}: the judge has seat {seat} play, mcr/2 waits for another move"
                )
            run(command_for(state, seat, by_seat[seat], where), where)
            continue
        source = (d + stage % 4) % SEATS
        claims = {p: a for p, a in by_seat.items() if p != source and a != "PASS"}
        if state.phase != "claim":
            if claims:
                p, a = next(iter(claims.items()))
                raise NotTranslatable(
                    f"{where}: seat {p} answers {a!r}, but mcr/2 offers it nothing (MC-3.2, MC-3.7)"
                )
            continue
        window = state.window.window
        for p in [(source + i) % SEATS for i in range(1, SEATS)]:
            if state.phase != "claim" or state.window is None or state.window.window != window:
                break
            if p not in state.window.eligible or p in state.window.answers:
                if p in claims and stage < 8:
                    raise NotTranslatable(
                        f"{where}: seat {p} answers {claims[p]!r}, but mcr/2 offers it nothing"
                    )
                continue
            words = by_seat[p].split()
            text = (
                words[0]
                if words[:1] == ["PENG"]
                else " ".join(words[:2])
                if words[:1] == ["CHI"]
                else by_seat[p]
            )
            run(command_for(state, p, text, f"{where}, seat {p}"), f"{where}, seat {p}")
        mover = next((p for p, a in claims.items() if a.split()[0] in ("PENG", "CHI")), None)
        if mover is not None and state.phase == "turn" and state.turn == mover:
            words = by_seat[mover].split()
            run(command_for(state, mover, f"PLAY {words[-1]}", where), where)
    if state.phase != "over":
        raise NotTranslatable(
            "the match ends where mcr/2 plays on (the judge's walls run out per player, MC-3.6)"
        )
    won = state.result
    out = imp.outcome
    if (out.kind == "HU") != (won is not None) or (won is not None and won.seat != (d + out.seat) % SEATS):
        raise NotTranslatable(f"the judge ends the match with {out.kind}, mcr/2 otherwise")
    return batches
