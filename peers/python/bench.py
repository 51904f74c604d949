#!/usr/bin/env python3
"""Python peers for umpire: the Furious Reason manoeuvre as plain Python, and its exact
distribution with Icepool.

The workload is the one umpire benchmarks (rulesets/furious_reason.rules: `manoeuvre_drm`,
`manoeuvre_table`, `manoeuvre`), on `brigade.second_foot` of
examples/states/furious_reason_brigade.toml, read with the standard library's tomllib: a line
unit with 30% lost, so its DRM is -1 and it reads the good-order side. With a D10 roll r it gets
Well Handled on 8-10 (3/10), Tardy on 6-7, Hold on 4-5, Disengage on 2-3 (1/5 each) and Retire
on 1 (1/10). Every result is checked before it is timed.

Prints one JSON object to stdout (progress goes to stderr). Keys and units:

  "python manoeuvre_ns"          one seeded adjudication, ns (plain Python, random.Random)
  "python 1M manoeuvres_s"       a million adjudications tallied by outcome, s per million
  "python 1M 2d6+drm_s"          a million 2d6 + drm rolls summed, s per million
  "icepool exact manoeuvre_ns"   the exact outcome distribution of one manoeuvre, ns
  "icepool Nd6 1..50_ns"         N @ d6 for every N in 1..50, each from a fresh d6, ns in all
  "icepool Nd6 N=50_ns"          50 @ d6 from a fresh d6, ns

Each figure is the median over several timeit repeats of the time per call. Icepool keeps a
per-die cache of sums (`Die._sum_cache`) and `icepool.d6` is itself a cached object, so the Nd6
timings build a fresh d6 (`icepool.Die(range(1, 7))`) inside each timed call: the timing is of
the computation, not of a cache hit. The icepool import is optional: without it (no venv) the
plain-Python keys are still printed.

Usage: python bench.py [--quick]   (--quick: fewer repeats, for a smoke test)
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import timeit
import tomllib
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

SEED = 1813  # the seed the Rust peers use too
ROOT = Path(__file__).resolve().parent.parent.parent  # the umpire checkout
STATE = ROOT / "examples" / "states" / "furious_reason_brigade.toml"

EXPECTED = {
    "well_handled": Fraction(3, 10),
    "tardy": Fraction(1, 5),
    "hold": Fraction(1, 5),
    "disengage": Fraction(1, 5),
    "retire": Fraction(1, 10),
}


@dataclass(frozen=True, slots=True)
class Unit:
    """`record Unit` of the ruleset: grade is the enum value's name."""

    grade: str
    leader_cp: int = 0
    rear_support: bool = False
    both_flanks_secure: bool = False
    column_formation: bool = False
    lost_percent: int = 0
    being_charged: bool = False
    enemy_in_charge_distance_flank_or_rear: bool = False
    skirmishers: bool = False
    flag_lost_or_commander_taken: bool = False
    disordered: bool = False


def second_foot() -> Unit:
    with open(STATE, "rb") as f:
        state = tomllib.load(f)
    u = Unit(**state["brigade"]["second_foot"])
    assert u == Unit(grade="line", lost_percent=30), f"brigade.second_foot changed: {u}"
    return u


def manoeuvre_drm(u: Unit) -> int:
    """`modifiers manoeuvre_drm(u: Unit)`."""
    m = 0
    if u.leader_cp > 0:
        m += u.leader_cp  # Attached Leader
    if u.rear_support:
        m += 1  # Rear Support
    if u.both_flanks_secure:
        m += 1  # Both Flanks Secure
    if u.column_formation:
        m += 1  # Column Formation
    if u.grade == "grenadier":
        m += 1  # Grenadier Class
    if u.grade == "guard":
        m += 2  # Guard Class
    if u.grade == "militia":
        m -= 1  # Militia Class
    m -= u.lost_percent // 25  # Each 25% lost
    if u.being_charged:
        m -= 1  # Being Charged
    if u.enemy_in_charge_distance_flank_or_rear:
        m -= 1  # Enemy Unit in Charge Distance to Flank or Rear
    if u.skirmishers:
        m -= 1  # Skirmishers
    if u.flag_lost_or_commander_taken:
        m -= 1  # Flag Lost/Cdr captured or killed
    return m


def manoeuvre_table(order: str, roll: int) -> str:
    """`table manoeuvre_table(order: Order, roll: Int) -> Outcome`."""
    if order == "good_order":
        if roll >= 7:
            return "well_handled"
        if roll >= 5:
            return "tardy"
        if roll >= 3:
            return "hold"
        if roll >= 1:
            return "disengage"
        return "retire"
    if roll >= 10:
        return "rally_with_elan"
    if roll >= 7:
        return "rally"
    if roll >= 5:
        return "shaken"
    if roll >= 3:
        return "wavering"
    if roll >= 1:
        return "broken"
    return "shattered"


def manoeuvre(u: Unit, rng: random.Random) -> str:
    """`rule manoeuvre(u: Unit) -> Outcome`: a D10 plus the DRMs, on the unit's side."""
    order = "disorder" if u.disordered else "good_order"
    return manoeuvre_table(order, rng.randint(1, 10) + manoeuvre_drm(u))


def million_manoeuvres(u: Unit, rng: random.Random) -> Counter:
    counts: Counter = Counter()
    for _ in range(1_000_000):
        counts[manoeuvre(u, rng)] += 1
    return counts


def million_2d6_drm(u: Unit, rng: random.Random) -> int:
    drm = manoeuvre_drm(u)  # the unit's DRM, computed once, as in the Rust peers
    total = 0
    randint = rng.randint
    for _ in range(1_000_000):
        total += randint(1, 6) + randint(1, 6) + drm
    return total


def check_tally(counts: Counter, tolerance: float = 0.005) -> None:
    n = sum(counts.values())
    assert n == 1_000_000, n
    assert set(counts) <= set(EXPECTED), counts
    for o, p in EXPECTED.items():
        f = counts[o] / n
        assert abs(f - float(p)) <= tolerance, (o, f, p)


def per_call(timer: timeit.Timer, repeat: int, number: int | None = None) -> float:
    """The median time of one call, in seconds."""
    if number is None:
        number, _ = timer.autorange()
        number = max(1, number)
    return statistics.median(t / number for t in timer.repeat(repeat=repeat, number=number))


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    repeat_small = 3 if quick else 7
    repeat_million = 1 if quick else 5
    out: dict[str, float] = {}

    u = second_foot()
    assert manoeuvre_drm(u) == -1
    # The table, face by face: r - 1 on the good-order side.
    faces = ["retire", "disengage", "disengage", "hold", "hold",
             "tardy", "tardy", "well_handled", "well_handled", "well_handled"]
    for r, o in zip(range(1, 11), faces):
        assert manoeuvre_table("good_order", r + manoeuvre_drm(u)) == o, r

    rng = random.Random(SEED)
    assert manoeuvre(u, rng) in EXPECTED
    env = {"manoeuvre": manoeuvre, "u": u, "rng": rng}
    out["python manoeuvre_ns"] = per_call(
        timeit.Timer("manoeuvre(u, rng)", globals=env), repeat_small) * 1e9
    log(f"python manoeuvre: {out['python manoeuvre_ns']:.0f} ns")

    check_tally(million_manoeuvres(u, rng))
    env = {"million_manoeuvres": million_manoeuvres, "u": u, "rng": rng}
    out["python 1M manoeuvres_s"] = per_call(
        timeit.Timer("million_manoeuvres(u, rng)", globals=env), repeat_million, number=1)
    log(f"python 1M manoeuvres: {out['python 1M manoeuvres_s']:.3f} s")

    mean = million_2d6_drm(u, rng) / 1e6
    assert abs(mean - 6.0) < 0.02, mean
    env = {"million_2d6_drm": million_2d6_drm, "u": u, "rng": rng}
    out["python 1M 2d6+drm_s"] = per_call(
        timeit.Timer("million_2d6_drm(u, rng)", globals=env), repeat_million, number=1)
    log(f"python 1M 2d6+drm: {out['python 1M 2d6+drm_s']:.3f} s")

    try:
        import icepool
    except ImportError:
        log("icepool is not installed: its keys are left out (peers/run.sh installs it)")
    else:
        log(f"icepool {icepool.__version__}")

        def exact_manoeuvre(u: Unit):
            """The manoeuvre's exact distribution: the D10 plus the DRMs, mapped through the
            unit's side of the table."""
            order = "disorder" if u.disordered else "good_order"
            return (icepool.d10 + manoeuvre_drm(u)).map(lambda roll: manoeuvre_table(order, roll))

        die = exact_manoeuvre(u)
        assert die.denominator() == 10, die
        assert set(die.outcomes()) == set(EXPECTED), die
        for o, p in EXPECTED.items():
            assert Fraction(die.quantity(o), die.denominator()) == p, (o, die)
        env = {"exact_manoeuvre": exact_manoeuvre, "u": u}
        out["icepool exact manoeuvre_ns"] = per_call(
            timeit.Timer("exact_manoeuvre(u)", globals=env), repeat_small) * 1e9
        log(f"icepool exact manoeuvre: {out['icepool exact manoeuvre_ns'] / 1e3:.1f} us")

        def nd6(n: int):
            return n @ icepool.Die(range(1, 7))  # a fresh d6: no cached sums

        # Checked: sizes, means and a known count (3d6 rolls 10 in 27 ways of 216).
        assert nd6(3).quantity(10) == 27 and nd6(3).denominator() == 216
        for n in (1, 2, 10, 50):
            d = nd6(n)
            assert d.denominator() == 6 ** n and d.mean() == Fraction(7 * n, 2), n
            assert d.min_outcome() == n and d.max_outcome() == 6 * n, n

        def nd6_all() -> None:
            for n in range(1, 51):
                nd6(n)

        env = {"nd6_all": nd6_all, "nd6": nd6}
        out["icepool Nd6 1..50_ns"] = per_call(
            timeit.Timer("nd6_all()", globals=env), max(1, repeat_small // 2), number=1) * 1e9
        log(f"icepool Nd6 N=1..50 in all: {out['icepool Nd6 1..50_ns'] / 1e6:.1f} ms")
        out["icepool Nd6 N=50_ns"] = per_call(
            timeit.Timer("nd6(50)", globals=env), repeat_small) * 1e9
        log(f"icepool 50d6: {out['icepool Nd6 N=50_ns'] / 1e6:.2f} ms")

    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
