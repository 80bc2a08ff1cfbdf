"""Reviews checked against play (issue 24): does the loss a review claims show up when the
options are played?

For each game (``--games``), ``--deals`` seeded deals of strong, random and greedy bots are played
(the deals of ``bench.review``: seat 0 strong, seat 1 random, greedy elsewhere) and seats 0 and 1
reviewed with the review code the service uses (``projections.review`` and the game's evaluator,
``service.app.analysis.reviews.build``, review seed 0). From the decisions whose chosen option is
not the review's best, ``--decisions`` are sampled across verdicts (a third from each of
mistakes, inaccuracies and unclear decisions, the rest from whatever is left; until method m7
the unclear ones were called agreements, and the mistakes and inaccuracies are the same
decisions under both). Each sampled decision is
then played from its true position, independently of the review: ``--continuations`` times (at
least ``--mistake-continuations`` for one marked a mistake, whose share measuring no loss is
bound by the measurement's own noise) the hidden cards are dealt again consistently with what
the deciding seat saw (the game's strong-bot sampler: ``domain.<game>.strong.sample``), the
chosen option and the review's best are each played on that deal and every seat then plays the
``strong`` bot to the end (the same deal and the same bots for both options: paired). The
measured loss is the mean of value(best) - value(chosen) over the continuations, with its
standard error.

Printed per game: the slope of the measured loss on the claimed one (least squares, with an
intercept) and their correlation, each with a bootstrap 95 % interval over the decisions; for
the marked mistakes, the mean claimed and measured loss with intervals, their ratio (target
>= 0.5), the share whose measured loss is above the mistake floor and the share measuring no
loss at all (<= 0; target <= 0.1); and the mean claimed and measured loss per verdict.
``claim_error_sd`` is the spread of measured - claimed beyond the measurements' own noise (how
far a claim misses). For a game whose review keeps an older model (``evaluate_model`` and its
``MODEL_FLOORS`` in ``projections/<game>/review.py``: the strong bot's closed-form model of
method m3) the same figures for that model on the same decisions: its best option is played too,
on the same continuations.

``mistake_rows``: each marked mistake's deal, seat, version, claimed loss and measured loss with
their noises, so one that measured no loss can be looked up (``dealstream review``) and measured
again. ``--first-deal K`` takes the seeded deals K, K+1, ... (a run on deals another run did not
see: a floor chosen on one run is checked on the next); ``--verdicts mistake`` samples only the
decisions the review gave those verdicts.

The continuations run in ``--jobs`` worker processes (default 2). ``--quick``: one deal per
game, up to three of the random seat's first four decisions, two continuations (a smoke run for
the tests: under a minute of wall time even on a loaded machine).
Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import hashlib
import math
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import msgspec

from bench.common import by_name, emit, own, parser
from bench.review import lineup
from domain.envelope import StoredEvent
from domain.selfplay import play_stored
from projections import review as rv
from service.app.analysis.reviews import build
from service.app.games import kit

BOOTSTRAP = 2000
VERDICTS = ("mistake", "inaccuracy", "unclear", "agrees", "even")
MAX_MOVES = 5000


def _log(game: str, i: int) -> tuple[list[StoredEvent], list[Any]]:
    k = kit(game)
    seed = hashlib.sha256(f"bench-review:{game}:{i}".encode()).digest()
    bots = [k.make_bot(level, j) for j, level in enumerate(lineup(game))]
    return play_stored(k.game, k.projections.view_from_state, bots, deal_id="b", server_seed=seed)


def _sampler(game: str, view: Any) -> Any:
    return own(game).calibration_sampler(view)  # each game's bench deals its hidden pieces again


def _continue(task: tuple[str, bytes, list[bytes], int, int]) -> list[list[int]]:
    """In a worker: for continuations [first, first + count), the seat's net payment after each
    option (its JSON in ``options``), every seat strong afterwards; paired on one deal each."""
    game, view_json, options_json, first, count = task
    k = kit(game)
    view = msgspec.json.decode(view_json, type=k.view_type)
    options = [msgspec.json.decode(o, type=k.game.command_type) for o in options_json]
    sampler = _sampler(game, view)
    seat = view.seat
    out = []
    for c in range(first, first + count):
        h = int.from_bytes(hashlib.sha256(view_json + f":{c}".encode()).digest()[:6], "big")
        base = sampler.state(random.Random(h))
        row = []
        for option in options:
            bots = [k.make_bot("strong", (h + p) & 0xFFFFFFFF) for p in range(k.game.seat_count)]
            _events, s = k.game.execute(k.game.copy_state(base), option)
            moves = 0
            while not k.game.is_over(s):
                moves += 1
                if moves > MAX_MOVES:  # pragma: no cover - deals end
                    raise RuntimeError("a continuation did not end")
                p = k.game.seats_to_act(s)[0]
                _events, s = k.game.execute(s, bots[p].choose(k.projections.view_from_state(s, p)))
            row.append(k.summary.deal_summary(s).payments[seat])
        out.append(row)
    return out


def _review(game: str, i: int, seat: int, limit: int | None) -> list[dict[str, Any]]:
    """The seat's reviewed decisions of deal ``i`` (the first ``limit`` only, if given)."""
    k = kit(game)
    records, events = _log(game, i)
    points = rv.points(k.game, k.projections.view_from_state, records, events, seat, k.review.same_play)
    if limit is not None:
        points = points[:limit]
    scores = rv.evaluate_chunk(points, k.view_type, k.game.command_type, k.review.evaluate, 0)
    review = build(k.game.ruleset, "b", seat, 0, points, scores)
    model = None
    evaluate_model = getattr(k.review, "evaluate_model", None)  # a game's older model, if it keeps one
    if evaluate_model is not None:
        model = rv.evaluate_chunk(points, k.view_type, k.game.command_type, evaluate_model, 0)
    out = []
    for j, (point, d) in enumerate(zip(points, review.decisions, strict=True)):
        row = {
            "deal": i,
            "seat": seat,
            "version": point.version,
            "view": bytes(point.view),
            "chosen": d.chosen,
            "best": d.best,
            "claimed": d.loss,
            "noise": d.loss_noise,
            "verdict": d.verdict,
        }
        if model is not None:
            m = rv.decide(
                point, model[j], k.view_type, k.game.command_type, *k.review.MODEL_FLOORS, k.review.same_play
            )
            row["model"] = {"best": m.best, "claimed": m.loss, "verdict": m.verdict}
        out.append(row)
    return out


def _pick(rows: list[dict[str, Any]], n: int, rng: random.Random,
          verdicts: tuple[str, ...] = ()) -> list[dict[str, Any]]:  # fmt: skip
    """Up to ``n`` decisions whose chosen option is not the best (for the review, or for the
    model), a third from mistakes, inaccuracies and unclear ones as far as they go; only the
    review's ``verdicts`` if named."""
    pool = [
        r for r in rows if r["best"] != r["chosen"] or ("model" in r and r["model"]["best"] != r["chosen"])
    ]
    rng.shuffle(pool)
    if verdicts:
        pool = [r for r in pool if r["verdict"] in verdicts]
    by = {v: [r for r in pool if r["verdict"] == v] for v in ("mistake", "inaccuracy", "unclear")}
    picked = []
    for v in by:
        picked += by[v][: n // 3]
    rest = [r for r in pool if not any(r is p for p in picked)]
    picked += rest[: n - len(picked)]
    return picked


def _boot(xs: list[float], ys: list[float], stat, rng: random.Random) -> list[float] | None:
    n = len(xs)
    if n < 2:
        return None
    vals = []
    for _ in range(BOOTSTRAP):
        idx = [rng.randrange(n) for _ in range(n)]
        v = stat([xs[i] for i in idx], [ys[i] for i in idx])
        if v is not None and math.isfinite(v):
            vals.append(v)
    if not vals:
        return None
    vals.sort()
    return [
        round(vals[int(0.025 * len(vals))], 3),
        round(vals[min(len(vals) - 1, int(0.975 * len(vals)))], 3),
    ]


def _slope(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx > 0 else None


def _corr(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.sqrt(sxx * syy)


def _mean_y(_xs: list[float], ys: list[float]) -> float:
    return sum(ys) / len(ys)


def _ratio(xs: list[float], ys: list[float]) -> float | None:
    return sum(ys) / sum(xs) if sum(xs) > 0 else None


def _r(v: float | None, digits: int = 3) -> float | None:
    return None if v is None else round(v, digits)


def figures(claims: list[tuple[float, str, float, float]], mistake_floor: float, seed: int) -> dict[str, Any]:
    """The calibration figures of (claimed loss, verdict, measured loss, its noise) rows."""
    rng = random.Random(seed)
    xs = [c for c, _v, _m, _s in claims]
    ys = [m for _c, _v, m, _s in claims]
    out: dict[str, Any] = {"decisions": len(claims)}
    if len(claims) >= 2:
        out["slope"] = _r(_slope(xs, ys))
        out["slope_ci95"] = _boot(xs, ys, _slope, rng)
        out["correlation"] = _r(_corr(xs, ys))
        out["correlation_ci95"] = _boot(xs, ys, _corr, rng)
    out["measured_noise_mean"] = _r(sum(s for *_x, s in claims) / len(claims)) if claims else None
    if len(claims) >= 2:
        # how far the claims miss beyond the measurement's own noise: the spread of measured -
        # claimed, less the mean variance of the measurements
        d = [m - c for c, _v, m, _s in claims]
        md = sum(d) / len(d)
        var = sum((x - md) ** 2 for x in d) / (len(d) - 1) - sum(s * s for *_x, s in claims) / len(claims)
        out["claim_error_sd"] = _r(math.sqrt(max(0.0, var)))
    mk = [(c, m) for c, v, m, _s in claims if v == "mistake"]
    mx, my = [c for c, _m in mk], [m for _c, m in mk]
    out["mistakes"] = {
        "count": len(mk),
        "claimed_mean": _r(sum(mx) / len(mx)) if mk else None,
        "measured_mean": _r(sum(my) / len(my)) if mk else None,
        "measured_mean_ci95": _boot(mx, my, _mean_y, rng),
        "measured_over_claimed": _r(_ratio(mx, my)) if mk else None,
        "measured_over_claimed_ci95": _boot(mx, my, _ratio, rng),
        "share_above_mistake_floor": _r(sum(m > mistake_floor for m in my) / len(my)) if mk else None,
        "share_no_loss": _r(sum(m <= 0 for m in my) / len(my)) if mk else None,
    }
    out["by_verdict"] = {}
    for verdict in VERDICTS:
        rows = [(c, m) for c, v, m, _s in claims if v == verdict]
        if rows:
            out["by_verdict"][verdict] = {
                "count": len(rows),
                "claimed_mean": _r(sum(c for c, _m in rows) / len(rows)),
                "measured_mean": _r(sum(m for _c, m in rows) / len(rows)),
            }
    return out


def measure(game: str, deals: int, decisions: int, continuations: int, jobs: int, quick: bool,
            pool: ProcessPoolExecutor, mistake_continuations: int = 0,
            verdicts: tuple[str, ...] = (), first_deal: int = 0) -> dict[str, Any]:  # fmt: skip
    k = kit(game)
    reviews = [
        pool.submit(_review, game, i, seat, 4 if quick else None)
        for i in range(first_deal, first_deal + deals)
        for seat in ((1,) if quick else (0, 1))
    ]
    rows = [r for f in reviews for r in f.result()]
    picked = _pick(rows, decisions, random.Random(f"calibration:{game}"), verdicts)
    for r in picked:
        marked = r["verdict"] == "mistake" or ("model" in r and r["model"]["verdict"] == "mistake")
        n = max(continuations, mistake_continuations) if marked else continuations
        chunk = max(1, n // max(1, jobs))
        view = msgspec.json.decode(r["view"], type=k.view_type)
        idx = [r["chosen"], r["best"]]
        if "model" in r:
            idx.append(r["model"]["best"])
        r["measured_options"] = idx
        opts = [msgspec.json.encode(view.legal_actions[i]) for i in idx]
        r["futures"] = [
            pool.submit(_continue, (game, r["view"], opts, c, min(chunk, n - c))) for c in range(0, n, chunk)
        ]
    for r in picked:
        r["payments"] = [row for f in r.pop("futures") for row in f.result()]

    def gap(r: dict[str, Any], col: int) -> tuple[float, float]:
        d = [row[col] - row[0] for row in r["payments"]]
        n = len(d)
        m = sum(d) / n
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n) if n > 1 else 0.0
        return m, se

    review_claims = [(r["claimed"], r["verdict"], *gap(r, 1)) for r in picked if r["best"] != r["chosen"]]
    out: dict[str, Any] = {
        "deals": deals,
        "first_deal": first_deal,
        "reviewed_decisions": len(rows),
        "sampled_decisions": len(picked),
        "continuations": continuations,
        "mistake_continuations": max(continuations, mistake_continuations),
        "verdicts_reviewed": {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS},
        "floors": {
            "inaccuracy": k.review.INACCURACY_FLOOR,
            "mistake": k.review.MISTAKE_FLOOR,
            "unit": k.review.UNIT,
        },
        "review": figures(review_claims, k.review.MISTAKE_FLOOR, 1),
        # each marked mistake, so one measuring no loss can be looked up (``dealstream review``)
        "mistake_rows": [
            {
                "deal": r["deal"],
                "seat": r["seat"],
                "version": r["version"],
                "claimed": r["claimed"],
                "claimed_noise": r["noise"],
                "measured": _r(m),
                "measured_noise": _r(se),
            }
            for r in picked
            if r["verdict"] == "mistake"
            for m, se in [gap(r, 1)]
        ],
        "targets": {"mistakes_measured_over_claimed": ">= 0.5", "mistakes_share_no_loss": "<= 0.1"},
    }
    model_floors = getattr(k.review, "MODEL_FLOORS", None)
    if model_floors is not None:
        model_claims = [
            (r["model"]["claimed"], r["model"]["verdict"], *gap(r, 2))
            for r in picked
            if r["model"]["best"] != r["chosen"]
        ]
        out["model"] = figures(model_claims, model_floors[1], 2)
        out["model"]["floors"] = {"inaccuracy": model_floors[0], "mistake": model_floors[1]}
        out["model"]["verdicts_reviewed"] = {
            v: sum(r["model"]["verdict"] == v for r in rows) for v in VERDICTS
        }
    return out


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=4, help="seeded deals per game (seats 0 and 1 reviewed)")
    p.add_argument(
        "--first-deal", type=int, default=0,
        help="the first seeded deal's number (a run on deals another run did not see)",
    )  # fmt: skip
    p.add_argument("--decisions", type=int, default=24, help="decisions sampled per game")
    p.add_argument("--continuations", type=int, default=16, help="strong continuations per decision")
    p.add_argument(
        "--mistake-continuations", type=int, default=0,
        help="at least this many continuations for a decision marked a mistake",
    )  # fmt: skip
    p.add_argument(
        "--verdicts", default="",
        help="sample only the decisions the review gave these verdicts (comma-separated: mistake, ...)",
    )  # fmt: skip
    p.add_argument("--games", default=",".join(by_name()), help="comma-separated (default all)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes")
    p.add_argument("--quick", action="store_true", help="a smoke run: 1 deal, 3 decisions, 2 continuations")
    args = p.parse_args(argv)
    deals, decisions, continuations = (
        (1, 3, 2) if args.quick else (args.deals, args.decisions, args.continuations)
    )
    result: dict[str, Any] = {"method": rv.METHOD}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for game in args.games.split(","):
            result[game] = measure(
                game, deals, decisions, continuations, args.jobs, args.quick, pool,
                args.mistake_continuations, tuple(v for v in args.verdicts.split(",") if v),
                args.first_deal,
            )  # fmt: skip
    emit(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
