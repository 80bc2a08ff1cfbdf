"""The aggregate's state: compact lists of card ids plus per-kind counts, evolved in place."""

from __future__ import annotations

from typing import Any

from domain.paohuzi.cards import FOUR_CARD, SEATS, target_for
from domain.table.seating import Seating

assert SEATS == 3, "State.__init__ writes its per-seat lists out for three seats"


class State:
    __slots__ = (
        "version",
        "created",
        "client_seed",
        "client_seeds",
        "seating",
        "dealer",
        "face_up",
        "stock",
        "stock_pos",
        "hands",
        "counts",
        "kans",
        "melds",
        "rows",
        "chou",
        "dead",
        "table",
        "table_source",
        "table_seat",
        "phase",
        "turn",
        "window",
        "eligible",
        "answers",
        "resolutions",
        "result",
        "seed_revealed",
        "opening_fours",
        "_cache",
    )

    def __init__(self) -> None:
        self.version = 0
        self.created: Any = None
        self.client_seed = ""
        self.client_seeds: list[str] | None = None  # several people's seeds (TB-3.1)
        self.seating = Seating()  # who sits where (TB-1), from DealCreated and the seat events
        self.dealer = -1
        self.face_up = -1
        self.stock: list[int] = []
        self.stock_pos = 0
        # one entry per seat, written out (SEATS == 3): every fold starts with a new State
        self.hands: list[list[int]] = [[], [], []]
        self.counts: list[list[int]] = [[0] * 20, [0] * 20, [0] * 20]
        self.kans: list[list[tuple[int, ...]]] = [[], [], []]
        # exposed melds: (type, card ids tuple)
        self.melds: list[list[tuple[str, tuple[int, ...]]]] = [[], [], []]
        self.rows: list[list[int]] = [[], [], []]
        self.chou: list[set[int]] = [set(), set(), set()]
        self.dead = [False] * SEATS
        self.table: int | None = None
        self.table_source = ""
        self.table_seat = -1
        self.phase = "new"  # new | dealing | reveal | discarded | claim | discard | over
        self.turn = -1
        self.window = 0
        self.eligible: list[int] = []
        self.answers: dict[int, tuple[str, Any]] = {}
        self.resolutions: dict[int, Any] = {}
        self.result: Any = None
        self.seed_revealed = False
        self.opening_fours = [0] * SEATS
        self._cache: dict = {}

    def copy(self) -> State:
        n = State.__new__(State)
        n.version = self.version
        n.created = self.created
        n.client_seed = self.client_seed
        n.client_seeds = self.client_seeds
        n.seating = self.seating  # immutable
        n.dealer = self.dealer
        n.face_up = self.face_up
        n.stock = self.stock  # never mutated after dealing
        n.stock_pos = self.stock_pos
        n.hands = [h[:] for h in self.hands]
        n.counts = [c[:] for c in self.counts]
        n.kans = [k[:] for k in self.kans]
        n.melds = [m[:] for m in self.melds]
        n.rows = [r[:] for r in self.rows]
        n.chou = [set(c) for c in self.chou]
        n.dead = self.dead[:]
        n.table = self.table
        n.table_source = self.table_source
        n.table_seat = self.table_seat
        n.phase = self.phase
        n.turn = self.turn
        n.window = self.window
        n.eligible = self.eligible
        n.answers = dict(self.answers)
        n.resolutions = self.resolutions  # append-only by window id; copied on write
        n.result = self.result
        n.seed_revealed = self.seed_revealed
        n.opening_fours = self.opening_fours[:]
        n._cache = self._cache
        return n

    # ---- derived figures -------------------------------------------------------------------
    def holding(self, seat: int) -> int:
        """Cards a seat holds: concealed hand, kan and exposed melds (PH-4.3, PH-5.2)."""
        return len(self.hands[seat]) + 3 * len(self.kans[seat]) + sum(len(m[1]) for m in self.melds[seat])

    def fours(self, seat: int) -> int:
        return sum(1 for m in self.melds[seat] if m[0] in FOUR_CARD)

    def target(self, seat: int) -> int:
        """PH-5.2: 20 + max(0, q - 1) with q four-card groups."""
        return target_for(self.fours(seat))

    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def snapshot(self) -> tuple:
        """Everything that defines the state (for equality tests); excludes caches."""
        return (
            self.version,
            self.created,
            self.client_seed,
            self.client_seeds and tuple(self.client_seeds),
            self.seating,
            self.dealer,
            self.face_up,
            tuple(self.stock),
            self.stock_pos,
            tuple(tuple(sorted(h)) for h in self.hands),
            tuple(tuple(c) for c in self.counts),
            tuple(tuple(sorted(k)) for k in self.kans),
            tuple(tuple(m) for m in self.melds),
            tuple(tuple(r) for r in self.rows),
            tuple(tuple(sorted(c)) for c in self.chou),
            tuple(self.dead),
            self.table,
            self.table_source,
            self.table_seat,
            self.phase,
            self.turn,
            self.window,
            tuple(self.eligible),
            tuple(sorted((k, repr(v)) for k, v in self.answers.items())),
            tuple(sorted((k, repr(v)) for k, v in self.resolutions.items())),
            self.result,
            self.seed_revealed,
            tuple(self.opening_fours),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]
