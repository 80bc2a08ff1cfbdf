"""Games of four ``dealstream botzone`` seats refereed by the Botzone judge of Chinese Standard
Mahjong (issue 25, docs/botzone.md): games completed, penalties, and each answer's time with the
process start (a new process per turn) or in the long-running mode.

    python -m bench.botzone --judge /tmp/bzjudge/judge --games 20 --json
    python -m bench.botzone --sample-bot /tmp/bzsample/sample --walls-per-bot 200 --jobs 2 --json

``--sample-bot`` is the strength against an outside bot: the Botzone sample bot (built from the
same public source, docs/botzone.md) seated as a program speaking the Botzone protocol
(``--bot-program-protocol sample=botzone``), three copies against one of ours (``strong``, then
``greedy``), in ``dealstream arena``'s duplicate format under our rules for new deals: the edge of our
bot over the sample bot per deal with its 95 % interval over the walls. With ``--judge`` too, the
report adds the games the judge itself ran with ``dealstream botzone`` seats and their penalties.

``--judge`` is the judge built from its public source (docs/botzone.md says how; it is not part of
this repository). The bench drives it as Botzone does: the whole match log as JSON on its stdin,
the next requests (or the finish) on its stdout. Without ``--judge`` the games are refereed by our
own statement of the judge's reading (the ``Referee`` of the ``botzone`` module of the game that
speaks Botzone, ``service.app.games.botzone_game``).

Seats run in the long-running mode (``--keep-running``, one process per seat and game). The first
``--cold-turns`` turns of every seat are also answered by a fresh process each (the JSON
interaction, process start included), and checked to say the same as the long-running seat.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def bot_command(level: str, keep: bool) -> list[str]:
    exe = Path(sys.executable).with_name("dealstream")
    base = [str(exe)] if exe.exists() else [sys.executable, "-m", "service.cli"]
    return [*base, "botzone", "--level", level, *(["--keep-running"] if keep else [])]


class Seat:
    """A long-running ``dealstream botzone`` process for one seat."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.proc: Any = None  # started when first asked: the first answer's time counts the start
        self.first = True

    def ask(self, requests: list[str], responses: list[str]) -> tuple[str, float, str]:
        """(response, seconds, verdict) for the last request."""
        if self.first:
            line = json.dumps({"requests": requests, "responses": responses})
            self.first = False
        else:
            line = requests[-1]
        t = time.perf_counter()
        if self.proc is None:
            self.proc = subprocess.Popen(
                bot_command(self.level, True),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            out = self.proc.stdout.readline()
            marker = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            return "", time.perf_counter() - t, "RE"
        took = time.perf_counter() - t
        if not out or marker.strip() != MARKER:
            return "", took, "RE"
        try:
            return json.loads(out)["response"], took, "OK"
        except (json.JSONDecodeError, KeyError, TypeError):
            return out.strip(), took, "OK"

    def close(self) -> str:
        if self.proc is None:
            return ""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.stderr.read()


def cold_answer(level: str, requests: list[str], responses: list[str]) -> tuple[str, float]:
    """One turn in a fresh process (the JSON interaction), process start included."""
    t = time.perf_counter()
    done = subprocess.run(
        bot_command(level, False),
        input=json.dumps({"requests": requests, "responses": responses}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    took = time.perf_counter() - t
    try:
        return json.loads(done.stdout)["response"], took
    except (json.JSONDecodeError, KeyError, TypeError):
        return "", took


def judge_step(judge: str, log: list[Any], initdata: Any) -> dict:
    done = subprocess.run(
        [judge],
        input=json.dumps({"log": log, "initdata": initdata}),
        capture_output=True,
        text=True,
        timeout=30,
    )
    return json.loads(done.stdout)


def _game() -> tuple[Any, Any]:
    """(kit, Botzone modules) of the registered game that speaks the judge's protocol."""
    from service.app.games import botzone_game

    return botzone_game()


def play_game(
    judge: str | None, levels: list[str], initdata: Any, cold_turns: int, rng: random.Random
) -> dict:
    bz = _game()[1]
    Penalty, Referee = bz.referee.Penalty, bz.referee.Referee

    seats = [Seat(lv) for lv in levels]
    reqs: list[list[str]] = [[] for _ in range(4)]
    resps: list[list[str]] = [[] for _ in range(4)]
    log: list[Any] = []
    times: list[float] = []
    first: list[float] = []
    cold: list[float] = []
    mismatches = 0
    ref = None
    result: dict[str, Any] = {}
    try:
        while True:
            if judge is not None:
                out = judge_step(judge, log, initdata)
                if not log:
                    initdata = out.get("initdata", initdata)
                if out.get("command") == "finish":
                    disp = out.get("display", {})
                    result = {
                        "end": disp.get("action"),
                        "player": disp.get("player"),
                        "scores": [out["content"][str(i)] for i in range(4)],
                    }
                    break
                content = [out["content"][str(i)] for i in range(4)]
            else:
                if ref is None:
                    ref = Referee(initdata["walltiles"], initdata["quan"])
                content = ref.requests()
                if content is None:
                    o = ref.outcome
                    result = {
                        "end": o.kind if o.kind != "PENALTY" else o.code,
                        "player": o.seat,
                        "scores": o.scores,
                    }
                    break
            log.append(
                {"output": {"command": "request", "content": {str(i): c for i, c in enumerate(content)}}}
            )
            answers = {}
            for i in range(4):
                reqs[i].append(content[i])
                text, took, verdict = seats[i].ask(reqs[i], resps[i])
                (first if len(reqs[i]) == 1 else times).append(took)
                if len(reqs[i]) <= cold_turns:
                    again, t_cold = cold_answer(levels[i], reqs[i], resps[i])
                    cold.append(t_cold)
                    mismatches += again != text
                resps[i].append(text)
                answers[str(i)] = {"verdict": verdict, "response": text}
            log.append(answers)
            if ref is not None:
                try:
                    ref.respond([answers[str(i)]["response"] for i in range(4)])
                except Penalty:
                    pass
    finally:
        errors = [s.close() for s in seats]
    result.update(
        rounds=len(log) // 2,
        times=times,
        first=first,
        cold=cold,
        mismatches=mismatches,
        stderr=[e[-300:] for e in errors if e.strip()],
        initdata=initdata,
    )
    return result


def _q(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def arena_against(sample: str, ours: str, walls: int, jobs: int, seed: str) -> dict:
    """``dealstream arena`` of ``ours`` against three copies of the sample bot (a Botzone program)."""
    base = bot_command("x", False)[:-3]  # the dealstream command itself
    cmd = [
        *base, "arena", "--game", _game()[0].name, "--bots", f"{ours},prog:sample", "--walls", str(walls),
        "--jobs", str(jobs), "--seed", seed, "--bot-program", f"sample={sample}",
        "--bot-program-protocol", "sample=botzone", "--json",
    ]  # fmt: skip
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=24 * 3600)
    if done.returncode != 0:
        raise SystemExit(f"bench.botzone: the arena failed ({done.returncode}): {done.stderr[-2000:]}")
    out = json.loads(done.stdout)
    fallbacks = [line for line in done.stderr.splitlines() if "failed (" in line]
    edge = out["edge"]
    return {
        "ours": ours,
        "lineup": out["lineup"],
        "walls": out["walls"],
        "deals": out["deals"],
        "edge_per_deal": edge["mean_net_per_deal"],
        "edge_ci95": edge["ci95"],
        "ours_per_deal": out["per_bot"][ours],
        "sample_per_deal": out["per_bot"]["prog:sample"],
        "sample_fallbacks": len(fallbacks),
        "fallback_lines": fallbacks[:5],
        "seconds": round(time.perf_counter() - t, 1),
    }


def sample_report(args: argparse.Namespace) -> dict:
    ours = [x for x in args.ours.split(",") if x]
    report: dict[str, Any] = {
        "sample_bot": args.sample_bot,
        "ruleset": _game()[0].game.ruleset,
        "format": "duplicate: each wall once per rotation of ours,sample,sample,sample",
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "loadavg_before": _loadavg()},
        "arenas": [
            arena_against(args.sample_bot, o, args.walls_per_bot, args.jobs, args.arena_seed) for o in ours
        ],
    }
    if args.judge:
        rng = random.Random(args.seed)
        levels = args.levels.split(",")
        games = [
            play_game(args.judge, levels, {"srand": rng.randrange(1, 2**31)}, 0, rng)
            for _ in range(args.games)
        ]
        report["judge_games"] = {
            "levels": levels,
            "games": len(games),
            "completed_without_penalty": sum(g["end"] in ("HU", "HUANG") for g in games),
            "penalties": sum(g["end"] not in ("HU", "HUANG") for g in games),
        }
    report["machine"]["loadavg_after"] = _loadavg()
    return report


def _loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--judge", help="the Botzone judge binary (else our statement of its reading)")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--levels", default="strong,greedy,strong,greedy", help="the four seats' levels")
    p.add_argument(
        "--cold-turns", type=int, default=3, help="turns per seat also answered by a fresh process"
    )
    p.add_argument(
        "--walls",
        choices=("judge", "ours"),
        default="judge",
        help="judge: the judge shuffles its own 136-tile wall; ours: 144-tile walls of our own deals",
    )
    p.add_argument("--seed", type=int, default=25)
    p.add_argument("--json", action="store_true")
    p.add_argument("--sample-bot", help="the Botzone sample bot, built: strength against it (above)")
    p.add_argument("--ours", default="strong,greedy", help="our levels, each against three sample bots")
    p.add_argument("--walls-per-bot", type=int, default=100, help="arena walls for each of --ours")
    p.add_argument("--jobs", type=int, default=2, help="the arena's worker processes")
    p.add_argument("--arena-seed", default="botzone-sample")
    args = p.parse_args(argv)
    if args.sample_bot:
        report = sample_report(args)
        print(json.dumps(report) if args.json else json.dumps(report, indent=1))
        bad = report.get("judge_games", {}).get("penalties", 0) + sum(
            a["sample_fallbacks"] for a in report["arenas"]
        )
        return 1 if bad else 0
    levels = args.levels.split(",")
    if len(levels) != 4:
        p.error("--levels names four seats")
    rng = random.Random(args.seed)
    games = []
    t0 = time.perf_counter()
    for g in range(args.games):
        if args.walls == "ours" or args.judge is None:
            initdata = _our_wall(rng)
        else:
            initdata = {"srand": rng.randrange(1, 2**31)}
        games.append(play_game(args.judge, levels, initdata, args.cold_turns, rng))
        if not args.json:
            last = games[-1]
            print(
                f"game {g + 1}: {last['end']} player {last['player']} scores {last['scores']}"
                f" rounds {last['rounds']}",
                file=sys.stderr,
            )
    penalties = [g for g in games if g["end"] not in ("HU", "HUANG")]
    times = [t for g in games for t in g["times"]]
    first = [t for g in games for t in g["first"]]
    cold = [t for g in games for t in g["cold"]]
    report = {
        "judge": os.path.basename(args.judge) if args.judge else "model",
        "walls": args.walls,
        "levels": levels,
        "games": len(games),
        "completed": sum(g["end"] in ("HU", "HUANG") for g in games),
        "wins": sum(g["end"] == "HU" for g in games),
        "drawn": sum(g["end"] == "HUANG" for g in games),
        "penalties": len(penalties),
        "penalty_details": [
            {"end": g["end"], "player": g["player"], "initdata": g["initdata"]} for g in penalties
        ],
        "answers": len(times) + len(first),
        "first_turn_s": {"p50": round(_q(first, 0.5), 3), "max": round(max(first, default=0), 3)},
        "cold_turn_s": {
            "n": len(cold),
            "p50": round(_q(cold, 0.5), 3),
            "p95": round(_q(cold, 0.95), 3),
            "max": round(max(cold, default=0), 3),
        },
        "turn_s": {
            "p50": round(_q(times, 0.5), 4),
            "p95": round(_q(times, 0.95), 4),
            "p99": round(_q(times, 0.99), 4),
            "max": round(max(times, default=0), 3),
        },
        "cold_disagreements": sum(g["mismatches"] for g in games),
        "stderr": [e for g in games for e in g["stderr"]][:5],
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(report) if args.json else json.dumps(report, indent=1))
    return 0 if not penalties else 1


def _our_wall(rng: random.Random) -> dict:
    """A 144-tile wall with flowers: a seeded shuffle, cut into the judge's four parts."""
    code_of = _game()[1].codes.code_of

    tiles = [code_of(t) for t in range(144)]
    rng.shuffle(tiles)
    return {"srand": 0, "quan": rng.randrange(4), "walltiles": " ".join(tiles)}


if __name__ == "__main__":
    raise SystemExit(main())
