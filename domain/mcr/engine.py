"""decide / evolve / legal_actions for MCR (rules: docs/rules/mcr.md; rulesets: ``rulesets``)."""

from __future__ import annotations

from collections.abc import Iterable

from domain.claims import resolve
from domain.errors import RuleViolation
from domain.game import DealCreated, SeedRevealed, StartDeal
from domain.mcr import scoring
from domain.mcr.messages import (
    AddedKong,
    AddedKongDeclared,
    Claim,
    ClaimAnswered,
    ClaimWindowOpened,
    ClaimWindowResolved,
    ConcealedKong,
    ConcealedKongDeclared,
    DealStarted,
    DeclareWin,
    Discard,
    FlowerReplaced,
    HandWon,
    Pass,
    SetClaimed,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WallExhausted,
)
from domain.mcr.state import Meld, State, Window
from domain.mcr.tiles import DECK_SIZE, FIRST_FLOWER, KIND_CODES
from domain.shuffle import dealer_and_deck
from domain.table.absence import decide_back, decide_expiry
from domain.table.clock import Abandon, Back, DealAbandoned, Expire
from domain.table.seating import SEATING_COMMANDS, SEATING_EVENTS, Seating, decide_seating, start_plan
from domain.table.seeds import deal_seed

SEATS = 4
PREVAILING_WIND = 0  # MC-2.3: East
PRIORITY = {"win": 3, "kong": 2, "pung": 2, "chow": 1}


# ---------------------------------------------------------------------------------------------
# evolve
# ---------------------------------------------------------------------------------------------
def _remove(lst: list[int], tiles: Iterable[int]) -> None:
    for t in tiles:
        lst.remove(t)


def evolve(s: State, e) -> State:  # noqa: C901 - one dispatch over the event union
    s.version += 1
    t = type(e)
    if t is TileDrawn:
        if e.replacement:
            s.back -= 1
        else:
            s.front += 1
        s.hands[e.seat].append(e.tile)
        s.turn = e.seat
        s.last_tile = e.tile
        s.after_kong = e.replacement
        s.must_discard = False
        s.phase = "turn"
    elif t is TileDiscarded:
        s.hands[e.seat].remove(e.tile)
        s.discards[e.seat].append(e.tile)
        s.last_tile = None
        s.must_discard = False
        s.after_kong = False
        s.phase = "between"
    elif t is ClaimAnswered:
        s.window.answers[e.seat] = (e.answer, list(e.tiles))
    elif t is ClaimWindowOpened:
        s.window = Window(e.window, e.card, e.source_seat, e.source, list(e.eligible), {})
        s.windows = e.window + 1
        s.phase = "claim"
    elif t is ClaimWindowResolved:
        s.window = None
        s.phase = "between"
    elif t is FlowerReplaced:
        s.hands[e.seat].remove(e.flower)
        s.flowers[e.seat].append(e.flower)
        if e.replacement is not None:
            s.back -= 1
            s.hands[e.seat].append(e.replacement)
            if e.seat == s.turn and s.last_tile == e.flower:
                s.last_tile = e.replacement
                if s.rules.flower_replacement_is_no_kong_replacement:
                    s.after_kong = False  # MC-4.6: the tile now in hand replaced a flower, not the kong
        elif s.last_tile == e.flower:
            s.last_tile = None
    elif t is SetClaimed:
        hand = s.hands[e.seat]
        _remove(hand, [x for x in e.tiles if x != e.card])
        s.discards[e.from_seat].remove(e.card)
        s.melds[e.seat].append(Meld(e.meld, list(e.tiles), e.card, e.from_seat))
        s.turn = e.seat
        s.last_tile = None
        s.after_kong = False
        s.must_discard = e.meld != "kong"
        s.phase = "turn"
    elif t is ConcealedKongDeclared:
        _remove(s.hands[e.seat], e.tiles)
        s.melds[e.seat].append(Meld("concealed_kong", list(e.tiles)))
        s.last_tile = None
    elif t is AddedKongDeclared:
        s.hands[e.seat].remove(e.tile)
        k = e.tile >> 2
        melds = s.melds[e.seat]
        for i, m in enumerate(melds):  # a new Meld: clones share Meld objects (State.clone)
            if m.kind == "pung" and m.tiles[0] >> 2 == k:
                melds[i] = Meld("kong", [*m.tiles, e.tile], m.card, m.from_seat, True)
                break
        s.last_tile = None
        s.phase = "between"
    elif t is HandWon:
        if e.robbing_kong:
            melds = s.melds[e.from_seat]
            for i, m in enumerate(melds):
                if m.added and e.tile in m.tiles:
                    tiles = list(m.tiles)
                    tiles.remove(e.tile)
                    melds[i] = Meld("pung", tiles, m.card, m.from_seat, False)
                    break
            s.hands[e.seat].append(e.tile)
        elif not e.self_drawn:
            s.discards[e.from_seat].remove(e.tile)
            s.hands[e.seat].append(e.tile)
        s.result = e
        s.window = None
        s.phase = "over"
    elif t is WallExhausted:
        s.exhausted = True
        s.phase = "over"
    elif t is TilesDealt:
        s.hands[e.seat] = list(e.tiles)
        s.front += len(e.tiles)
        if e.seat == s.dealer:
            s.last_tile = e.tiles[-1]
    elif t is DealStarted:
        s.dealer = e.dealer
        s.client_seed = e.client_seed
        s.client_seeds = e.client_seeds
        s.prevailing_wind = e.prevailing_wind
        s.seat_winds = list(e.seat_winds)
        s.wall = _deck(s, e.client_seed, e.client_seeds)
        s.front = 0
        s.back = DECK_SIZE
        s.hands = [[] for _ in range(SEATS)]
        s.flowers = [[] for _ in range(SEATS)]
        s.melds = [[] for _ in range(SEATS)]
        s.discards = [[] for _ in range(SEATS)]
        s.turn = e.dealer
        s.phase = "turn"
    elif t is SeedRevealed:
        s.seed = e.seed
        s.phase = "over"
    elif t in SEATING_EVENTS:
        s.seating = s.seating.after(e)
    elif t is DealAbandoned:  # TB-2.7: over, nobody pays; the seed follows
        s.abandoned = True
        s.window = None
        s.phase = "over"
    elif t is DealCreated:
        s.deal_id = e.deal_id
        s.seat_kinds = list(e.seats)
        s.commitment = e.commitment
        s.server_seed = e.server_seed
        s.fixed_deck = list(e.fixed_deck) if e.fixed_deck is not None else None
        s.fixed_dealer = e.fixed_dealer
        s.ruleset = e.ruleset
        s.seating = Seating.of(e.seats, e.table)
        s.created = True
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"unknown event {e!r}")
    return s


def _deck(s: State, client_seed: str, client_seeds: list[str] | None) -> list[int]:
    if s.fixed_deck is not None:
        return list(s.fixed_deck)
    seed = deal_seed(s.server_seed, client_seed, client_seeds)
    return dealer_and_deck(seed, DECK_SIZE, SEATS)[1]


def fold(events: Iterable) -> State:
    s = State()
    for e in events:
        evolve(s, e)
    return s


# ---------------------------------------------------------------------------------------------
# rule helpers
# ---------------------------------------------------------------------------------------------
def _kinds(hand: list[int]) -> tuple[int, ...]:
    return tuple(sorted([t >> 2 for t in hand]))


def _count_kind(hand: list[int], k: int) -> list[int]:
    return sorted([t for t in hand if t >> 2 == k])


def _packs(s: State, seat: int) -> tuple:
    """PyMahjongGB packs of the seat's sets (``scoring.packs``; the state knows every tile)."""
    packs = scoring.packs(s.melds[seat], seat)
    assert packs is not None
    return packs


def _visible_copies(s: State, tile: int) -> int:
    """Other copies of ``tile``'s kind face up on the table (discards and exposed sets)."""
    k = tile >> 2
    n = 0
    for pile in s.discards:
        for t in pile:
            if t >> 2 == k and t != tile:
                n += 1
    for ms in s.melds:
        for m in ms:
            if m.kind != "concealed_kong":
                for t in m.tiles:
                    if t >> 2 == k and t != tile:
                        n += 1
    return n


def win_facts(s: State, seat: int, tile: int, self_drawn: bool, robbing: bool) -> scoring.WinFacts:
    """What decides ``seat`` winning on ``tile`` (MC-4.2), for the calculator."""
    hand = list(s.hands[seat])
    if self_drawn:
        hand.remove(tile)
    hand.sort()
    return scoring.WinFacts(
        packs=_packs(s, seat),
        hand=tuple([KIND_CODES[t >> 2] for t in hand]),
        win=KIND_CODES[tile >> 2],
        flowers=len(s.flowers[seat]),
        self_drawn=self_drawn,
        fourth=_visible_copies(s, tile) == 3,
        about_kong=robbing or (self_drawn and s.after_kong),
        wall_last=s.front == s.back,
        seat_wind=s.seat_winds[seat],
        prevailing=s.prevailing_wind,
    )


def evaluate_win(s: State, seat: int, tile: int, self_drawn: bool, robbing: bool,
                 kinds: tuple[int, ...] | None = None):
    """The WinScore if ``seat`` can legally win on ``tile`` now, else None (MC-4.1, MC-4.3).

    ``kinds``: the sorted kinds of the concealed hand without ``tile``, if the caller has them."""
    if kinds is None:
        hand = s.hands[seat]
        if self_drawn:
            rest = list(hand)
            rest.remove(tile)
            kinds = _kinds(rest)
        else:
            kinds = _kinds(hand)
    if (tile >> 2) not in scoring.waits(kinds):
        return None
    try:
        sc = scoring.score_facts(win_facts(s, seat, tile, self_drawn, robbing))
    except RuleViolation:
        return None
    return sc if sc.meets_minimum else None


def payments(winner: int, from_seat: int | None, total: int) -> list[int]:
    """MC-4.4: self-drawn: everyone pays 8 + total; else the discarder 8 + total, others 8."""
    pay = [0] * SEATS
    for p in range(SEATS):
        if p == winner:
            continue
        amount = 8 + total if (from_seat is None or p == from_seat) else 8
        pay[p] -= amount
        pay[winner] += amount
    return pay


def win_only(s: State, source: str) -> bool:
    """A tile that may be claimed only for a win: a robbed kong (MC-3.4), or, from the ruleset
    of MC-3.7 on, the discard made after the wall's last draw."""
    return source == "added_kong" or (
        s.rules.last_discard_only_for_a_win and source == "discard" and s.front == s.back
    )


def claim_options(s: State, seat: int, card: int, source: str, source_seat: int) -> list[Claim]:
    """A seat's claims on ``card`` (MC-3.2 / MC-3.4 / MC-3.7), without the pass; window id left 0."""
    if seat == source_seat:
        return []
    opts: list[Claim] = []
    robbing = source == "added_kong"
    if evaluate_win(s, seat, card, False, robbing) is not None:
        opts.append(Claim(seat=seat, window=0, claim="win"))
    if win_only(s, source):
        return opts
    k = card >> 2
    hand = s.hands[seat]
    same = _count_kind(hand, k)
    if len(same) >= 3 and s.front < s.back:
        opts.append(Claim(seat=seat, window=0, claim="kong", tiles=same[:3]))
    if len(same) >= 2:
        opts.append(Claim(seat=seat, window=0, claim="pung", tiles=same[:2]))
    if seat == (source_seat + 1) % SEATS and k < 27:
        pos = k % 9
        kinds = {t >> 2 for t in hand}
        for lo in (k - 2, k - 1, k):
            if lo < k - pos or lo + 2 > k - pos + 8:
                continue
            others = [x for x in (lo, lo + 1, lo + 2) if x != k]
            if others[0] in kinds and others[1] in kinds:
                tiles = [_count_kind(hand, x)[0] for x in others]
                opts.append(Claim(seat=seat, window=0, claim="chow", tiles=tiles))
    return opts


def has_claim(s: State, seat: int, card: int, source: str, source_seat: int) -> bool:
    """Whether ``claim_options`` offers anything, without building the claims: on most
    discards nobody can claim, and this answers that with a count before any win search."""
    if seat == source_seat:
        return False
    k = card >> 2
    kinds = _kinds(s.hands[seat])
    if not win_only(s, source):
        if kinds.count(k) >= 2:
            return True  # a pung at least (MC-3.2)
        if seat == (source_seat + 1) % SEATS and k < 27:
            pos = k % 9
            for lo in (k - 2, k - 1, k):
                if lo < k - pos or lo + 2 > k - pos + 8:
                    continue
                if all(x in kinds for x in (lo, lo + 1, lo + 2) if x != k):
                    return True  # a chow (MC-3.2)
    return evaluate_win(s, seat, card, False, source == "added_kong", kinds) is not None


def _window_options(s: State, seat: int) -> list[Claim]:
    w = s.window
    return [
        Claim(seat=seat, window=w.window, claim=o.claim, tiles=o.tiles)
        for o in claim_options(s, seat, w.card, w.source, w.source_seat)
    ]


# ---------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------
def legal_actions(s: State, seat: int) -> list:
    if s.phase == "new":
        return [StartDeal(seat=seat)] if s.created and 0 <= seat < SEATS and s.seating.may_start(seat) else []
    if s.phase == "claim":
        w = s.window
        if seat not in w.eligible or seat in w.answers:
            return []
        return [Pass(seat=seat, window=w.window), *_window_options(s, seat)]
    if s.phase != "turn" or seat != s.turn:
        return []
    hand = s.hands[seat]
    if any(t >= FIRST_FLOWER for t in hand):
        return []  # mid-batch (a replay step): a flower still awaits its replacement, nobody acts
    acts: list = [Discard(seat=seat, tile=t) for t in sorted(hand)]
    if s.must_discard:
        return acts
    if s.last_tile is not None and evaluate_win(s, seat, s.last_tile, True, False) is not None:
        acts.append(DeclareWin(seat=seat))
    if s.front < s.back:  # MC-3.3: a kong needs a replacement tile
        counts: dict[int, int] = {}
        for t in hand:
            counts[t >> 2] = counts.get(t >> 2, 0) + 1
        for k in sorted(counts):
            if counts[k] == 4:
                acts.append(ConcealedKong(seat=seat, tiles=_count_kind(hand, k)))
        pungs = {m.tiles[0] >> 2 for m in s.melds[seat] if m.kind == "pung"}
        if pungs:
            for t in sorted(hand):
                if t >> 2 in pungs:
                    acts.append(AddedKong(seat=seat, tile=t))
    return acts


def seats_to_act(s: State) -> list[int]:
    if s.phase == "claim":
        return [p for p in s.window.eligible if p not in s.window.answers]
    if s.phase == "turn":
        return [s.turn]
    return []


def is_over(s: State) -> bool:
    return s.phase == "over"


# ---------------------------------------------------------------------------------------------
# decide
# ---------------------------------------------------------------------------------------------
class _Run:
    """Events of one decide call, applied to a private clone as they are emitted."""

    __slots__ = ("s", "events")

    def __init__(self, s: State) -> None:
        self.s = s
        self.events: list = []

    def emit(self, e) -> None:
        self.events.append(e)
        evolve(self.s, e)


def decide(state: State, cmd) -> list:
    return execute(state, cmd)[0]


def execute(state: State, cmd) -> tuple[list, State]:
    """``decide``, plus the clone the events were applied to as they were emitted: the state
    that folding them onto ``state`` gives, without folding again."""
    if not state.created:
        raise RuleViolation("DS-2", "the deal has not been created")
    if type(cmd) is Abandon:  # TB-2.7: the table ends an untimed deal nobody moved in
        if state.phase == "over":
            raise RuleViolation("DS-6", "the deal is over")
        run = _Run(state.clone())
        run.emit(DealAbandoned(cmd.idle_since_ms, cmd.idle_ms))
        _reveal(run)
        return run.events, run.s
    seat = getattr(cmd, "seat", None)
    if not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleViolation("DS-3", f"unknown seat {seat!r}")
    if state.phase == "over":
        raise RuleViolation("DS-6", "the deal is over")
    if type(cmd) is StartDeal:
        if state.phase != "new":
            raise RuleViolation("DS-2", "the deal has already started")
        run = _Run(state.clone())
        plan = start_plan(state.seating, cmd)
        if plan and not isinstance(plan[0], str):
            for event in plan:  # TB-3.1: this person's seed, kept until every person has sent one
                run.emit(event)
        elif plan:
            _start(run, "", plan)  # type: ignore[arg-type]
        else:
            _start(run, cmd.client_seed, None)
        return run.events, run.s
    if type(cmd) is Expire:  # TB-2.5: the table plays the default move for the seat
        return decide_expiry(execute, evolve, State.clone, state, cmd, default_move(state, seat))
    if type(cmd) is Back:
        run = _Run(state.clone())
        for event in decide_back(state.seating, cmd):
            run.emit(event)
        return run.events, run.s
    if type(cmd) in SEATING_COMMANDS:
        run = _Run(state.clone())
        for event in decide_seating(state.seating, cmd, state.phase != "new"):
            run.emit(event)
        return run.events, run.s
    if state.phase == "new":
        raise RuleViolation("DS-2", "the deal has not started")
    t = type(cmd)
    if t is Discard and state.phase == "turn" and seat == state.turn:
        ok = cmd.tile in state.hands[seat]  # MC-3.1: any tile of the hand, always
    elif t is Pass and state.phase == "claim":
        w = state.window
        ok = cmd.window == w.window and seat in w.eligible and seat not in w.answers
    else:
        ok = cmd in legal_actions(state, seat)
    if not ok:
        _explain(state, cmd)
    run = _Run(state.clone())
    s = run.s
    if t is Discard:
        run.emit(TileDiscarded(seat=seat, tile=cmd.tile))
        _after_discard(run, seat, cmd.tile)
    elif t is DeclareWin:
        _win(run, seat, s.last_tile, None, True, False)
    elif t is ConcealedKong:
        run.emit(ConcealedKongDeclared(seat=seat, tiles=list(cmd.tiles)))
        _replacement(run, seat)
    elif t is AddedKong:
        run.emit(AddedKongDeclared(seat=seat, tile=cmd.tile))
        eligible = [
            p for p in _after(seat)
            if evaluate_win(s, p, cmd.tile, False, True) is not None
        ]
        if eligible:
            _open(run, cmd.tile, seat, "added_kong", eligible)
        else:
            _replacement(run, seat)
    elif t is Claim or t is Pass:
        answer = "pass" if t is Pass else cmd.claim
        tiles = [] if t is Pass else list(cmd.tiles)
        run.emit(ClaimAnswered(window=cmd.window, seat=seat, answer=answer, tiles=tiles))
        _maybe_resolve(run)
    else:  # pragma: no cover - legal_actions only lists known commands
        raise RuleViolation("DS-3", f"unknown command {cmd!r}")
    return run.events, run.s


def default_move(s: State, seat: int):
    """TB-2.5: what the table plays for a seat whose time ran out: a pass in a claim window; on
    its own turn no win and no kong but a discard, the tile just drawn or else the concealed
    tile with the highest id; None when the deal does not wait on the seat."""
    if s.phase == "claim" and s.window is not None:
        w = s.window
        return Pass(seat=seat, window=w.window) if seat in w.eligible and seat not in w.answers else None
    if s.phase == "turn" and seat == s.turn and s.hands[seat]:
        hand = s.hands[seat]
        drawn = s.last_tile if not s.must_discard and s.last_tile in hand else None
        return Discard(seat=seat, tile=drawn if drawn is not None else max(hand))
    return None


def _after(seat: int) -> list[int]:
    """The other seats in turn order after ``seat`` (nearest first)."""
    return [(seat + i) % SEATS for i in range(1, SEATS)]


def _start(run: _Run, client_seed: str, client_seeds: list[str] | None) -> None:
    s = run.s
    if s.fixed_dealer is not None:
        dealer = s.fixed_dealer
    else:
        seed = deal_seed(s.server_seed, client_seed, client_seeds)
        dealer = dealer_and_deck(seed, DECK_SIZE, SEATS)[0]
    winds = [(p - dealer) % SEATS for p in range(SEATS)]
    run.emit(DealStarted(dealer=dealer, client_seed=client_seed,
                         prevailing_wind=PREVAILING_WIND, seat_winds=winds, client_seeds=client_seeds))
    order = [(dealer + i) % SEATS for i in range(SEATS)]
    pos = 0
    for p in order:
        n = 14 if p == dealer else 13
        run.emit(TilesDealt(seat=p, tiles=s.wall[pos:pos + n]))
        pos += n
    for p in order:  # MC-2.4: flowers shown and replaced, dealer first then in turn order
        for t in sorted(x for x in s.hands[p] if x >= FIRST_FLOWER):
            if not _replace_flower(run, p, t):
                return


def _replace_flower(run: _Run, seat: int, flower: int) -> bool:
    """Show ``flower`` and replace it from the back, repeating on flowers; False: wall exhausted."""
    s = run.s
    while True:
        if s.front == s.back:
            run.emit(FlowerReplaced(seat=seat, flower=flower, replacement=None))
            _exhausted(run, seat)
            return False
        rep = s.wall[s.back - 1]
        run.emit(FlowerReplaced(seat=seat, flower=flower, replacement=rep))
        if rep < FIRST_FLOWER:
            return True
        flower = rep


def _draw(run: _Run, seat: int) -> None:
    s = run.s
    if s.front == s.back:
        _exhausted(run, seat)
        return
    tile = s.wall[s.front]
    run.emit(TileDrawn(seat=seat, tile=tile))
    if tile >= FIRST_FLOWER:
        _replace_flower(run, seat, tile)


def _replacement(run: _Run, seat: int) -> None:
    """MC-3.3: a kong's replacement tile from the back (a kong is only allowed if there is one)."""
    s = run.s
    tile = s.wall[s.back - 1]
    run.emit(TileDrawn(seat=seat, tile=tile, replacement=True))
    if tile >= FIRST_FLOWER:
        _replace_flower(run, seat, tile)


def _exhausted(run: _Run, seat: int) -> None:
    run.emit(WallExhausted(seat=seat))
    _reveal(run)


def _reveal(run: _Run) -> None:
    s = run.s
    seed = deal_seed(s.server_seed, s.client_seed, s.client_seeds).hex()
    run.emit(SeedRevealed(server_seed=s.server_seed, client_seed=s.client_seed, seed=seed,
                          client_seeds=s.client_seeds))


def _after_discard(run: _Run, seat: int, tile: int) -> None:
    s = run.s
    eligible = [p for p in _after(seat) if has_claim(s, p, tile, "discard", seat)]
    if eligible:
        _open(run, tile, seat, "discard", eligible)
    else:
        _draw(run, (seat + 1) % SEATS)


def _open(run: _Run, card: int, source_seat: int, source: str, eligible: list[int]) -> None:
    s = run.s
    run.emit(ClaimWindowOpened(window=s.windows, card=card, source_seat=source_seat,
                               source=source, eligible=eligible))


def _order(w: Window) -> list[int]:
    """MC-3.2: ties go to the seat nearest after the discarder."""
    return [(w.source_seat + i) % SEATS for i in range(1, SEATS)]


def best_claim(w: Window, answers: dict) -> tuple[int, str] | None:
    """The winning (seat, claim) among ``answers``: priority, then nearest after the source."""
    verdict = resolve(_order(w), {p: PRIORITY.get(a, 0) for p, (a, _t) in answers.items()}, {})
    return (verdict.seat, answers[verdict.seat][0]) if verdict.seat is not None else None


def expected_resolution(s: State) -> tuple[int, str] | None | bool:
    """(seat, claim) / None when the window can be resolved now; False while it must wait."""
    w = s.window
    pending = {
        p: max((PRIORITY[o.claim] for o in claim_options(s, p, w.card, w.source, w.source_seat)), default=0)
        for p in w.eligible
        if p not in w.answers
    }
    verdict = resolve(_order(w), {p: PRIORITY.get(a, 0) for p, (a, _t) in w.answers.items()}, pending)
    if not verdict.closed:
        return False
    return (verdict.seat, w.answers[verdict.seat][0]) if verdict.seat is not None else None


def _maybe_resolve(run: _Run) -> None:
    s = run.s
    w = s.window
    res = expected_resolution(s)
    if res is False:
        return
    rule = "MC-3.4" if w.source == "added_kong" else "MC-3.2"
    if res is None:
        run.emit(ClaimWindowResolved(window=w.window, seat=None, claim=None, rule_id=rule))
        if w.source == "added_kong":
            _replacement(run, w.source_seat)
        else:
            _draw(run, (w.source_seat + 1) % SEATS)
        return
    seat, claim = res
    tiles = w.answers[seat][1]
    run.emit(ClaimWindowResolved(window=w.window, seat=seat, claim=claim, rule_id=rule))
    if claim == "win":
        _win(run, seat, w.card, w.source_seat, False, w.source == "added_kong")
        return
    all_tiles = sorted([*tiles, w.card])
    run.emit(SetClaimed(seat=seat, meld=claim, tiles=all_tiles, card=w.card,
                        from_seat=w.source_seat))
    if claim == "kong":
        _replacement(run, seat)


def _win(run: _Run, seat: int, tile: int, from_seat: int | None, self_drawn: bool,
         robbing: bool) -> None:
    s = run.s
    facts = win_facts(s, seat, tile, self_drawn, robbing)
    sc = scoring.score_facts(facts)
    if not sc.meets_minimum:  # legal_actions already checked; defensive
        raise RuleViolation("MC-4.3", f"{sc.fan_points} points before flowers; 8 needed")
    hand = sorted(s.hands[seat])
    if self_drawn:
        hand.remove(tile)
    run.emit(HandWon(
        seat=seat, tile=tile, from_seat=from_seat, self_drawn=self_drawn, robbing_kong=robbing,
        about_kong=facts.about_kong, wall_last=facts.wall_last, fourth_tile=facts.fourth, hand=hand,
        fans=sc.fans, fan_points=sc.fan_points, flower_points=sc.flower_points, total=sc.total,
        payments=payments(seat, from_seat, sc.total),
    ))
    _reveal(run)


# ---------------------------------------------------------------------------------------------
# why a command is not legal: the rule it breaks
# ---------------------------------------------------------------------------------------------
def _explain(s: State, cmd) -> None:  # noqa: C901 - one message per rule
    seat = cmd.seat
    t = type(cmd)
    if t is Claim or t is Pass:
        w = s.window
        if s.phase != "claim" or w is None or cmd.window != w.window:
            raise RuleViolation("MC-3.2", f"no open claim window {cmd.window}")
        if seat not in w.eligible:
            raise RuleViolation("DS-3", f"seat {seat} has no claim on window {w.window}")
        if seat in w.answers:
            raise RuleViolation("MC-3.2", "this seat has already answered")
        if t is Claim:
            if cmd.claim == "win":
                _explain_win(s, seat, w.card, False, w.source == "added_kong")
            if w.source == "added_kong":
                raise RuleViolation("MC-3.4", "an added kong can only be robbed for a win")
            if cmd.claim == "chow" and seat != (w.source_seat + 1) % SEATS:
                raise RuleViolation("MC-3.2", "only the next seat may chow")
            if cmd.claim == "kong" and s.front == s.back:
                raise RuleViolation("MC-3.3", "no kong without a replacement tile in the wall")
            raise RuleViolation("MC-3.2", f"{cmd.claim} with tiles {cmd.tiles} is not possible")
        raise RuleViolation("MC-3.2", "not a valid answer")
    if s.phase == "claim":
        raise RuleViolation("DS-3", "a claim window is open; only its answers are accepted")
    if seat != s.turn or s.phase != "turn":
        raise RuleViolation("DS-3", f"it is not seat {seat}'s move")
    if t is Discard:
        raise RuleViolation("MC-3.1", f"tile {cmd.tile} is not in the hand")
    if t is DeclareWin:
        if s.must_discard or s.last_tile is None:
            raise RuleViolation("MC-3.5", "after a chow or pung the seat must discard")
        _explain_win(s, seat, s.last_tile, True, False)
    if t is ConcealedKong or t is AddedKong:
        if s.must_discard:
            raise RuleViolation("MC-3.5", "discard before declaring a kong after a chow or pung")
        if s.front == s.back:
            raise RuleViolation("MC-3.3", "no kong without a replacement tile in the wall")
        raise RuleViolation("MC-3.3", "those tiles do not make a kong")
    raise RuleViolation("DS-3", f"command not accepted now: {type(cmd).__name__}")


def _explain_win(s: State, seat: int, tile: int, self_drawn: bool, robbing: bool) -> None:
    """Raise the precise reason a claimed win is false (MC-4.5 / MC-4.1 / MC-4.3)."""
    sc = scoring.score_facts(win_facts(s, seat, tile, self_drawn, robbing))  # raises MC-4.1
    if not sc.meets_minimum:
        raise RuleViolation(
            "MC-4.3", f"the hand scores {sc.fan_points} points before flowers; 8 are needed")
    raise RuleViolation("MC-4.5", "not a legal win now")
