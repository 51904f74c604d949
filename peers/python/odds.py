#!/usr/bin/env python3
"""Icepool's side of the exact-odds benchmarks O1-O7 (issue 19, "Speed, side by side";
benches/prob_compare.sh runs it).

One workload per process, as a user meets it: the import of icepool is not timed, the
FIRST computation of the workload's exact distribution is, with time.perf_counter, in this
fresh process (so no cache of icepool's is warm). Then the result is turned into
{outcome: Fraction} and, given umpire's `prob --format json` output, compared with it
outcome by outcome; nothing of the comparison is timed.

    python odds.py O3                      # time O3, print {"workload", "seconds"}
    python odds.py O3 --umpire out.json    # the same, and compare with umpire's answer
    python odds.py --self-test             # check each spelling against brute force

Prints one JSON object on stdout: {"workload": "O3", "seconds": 0.93, "check": "ok"}.
"check" is "ok", "not exact: ..." (umpire's answer, or a row of it, was sampled or an
error) or "differs: ..." (an outcome's exact chance is not Icepool's), and is left out
without --umpire. Exit status 0 whatever the check says (the harness writes the row);
2 when Icepool's own answer fails the facts asserted below, or the arguments are wrong.

The spellings: Icepool's own idioms, the faster where two natural ones differ much:
  O1  dice(n, 6) for n = 1..50    [n @ d6 for n in 1..50], one d6 (icepool caches its sums,
                                   as a user's loop would reuse them)
  O2  manoeuvre_table(good_order, D10 + m) for m = -3..3
                                   [(d10 + m).map(good-order side) for m in -3..3]
  O3  100d6 > 100d6                (100 @ d6) > (100 @ d6): a Die of False/True
  O4  count(100d6, at_least: 4)    100 @ (d6 >= 4): the sum of a hundred 0/1 dice
                                   (d6.pool(100).keep_outcomes(...).size() is ~15x slower)
  O5  highest(3, 10d6)             d6.pool(10).highest(3).sum()
  O6  wounds(20) of benches/prob/bench.rules: 20 @ attack, attack = 1 when a d6 hits on
      3+, a d6 wounds on 4+ and a d6 saves on 5+ fails, else 0 (icepool.map over three d6)
  O7  the four battalions of examples/states/furious_reason_brigade.toml, their manoeuvres
      jointly: icepool.tupleize of each unit's (d10 + its DRM).map(its side of the table);
      umpire's record {guard_grenadiers: ..., second_foot: ..., county_militia: ...,
      grenadiers: ...} is compared as the tuple in that order.
The Furious Reason rules (DRMs, both sides of the table) are bench.py's, beside this file.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
import tomllib
from fractions import Fraction
from math import comb
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench import STATE, Unit, manoeuvre_drm, manoeuvre_table  # noqa: E402

# The values a sweep's rows are at, in order.
SWEEPS = {"O1": range(1, 51), "O2": range(-3, 4)}

# The battalions of the brigade example in the order of umpire's record (O7).
BATTALIONS = ["guard_grenadiers", "second_foot", "county_militia", "grenadiers"]


def units() -> list[Unit]:
    with open(STATE, "rb") as f:
        brigade = tomllib.load(f)["brigade"]
    return [Unit(**brigade[name]) for name in BATTALIONS]


# --- the spellings: each returns a Die, or a list of Dice for a sweep ---------------------
# The sizes are parameters so that --self-test can check the same code on small sizes
# against brute force.

def o1(icepool, top: int = 50):
    d6 = icepool.d6
    return [n @ d6 for n in range(1, top + 1)]


def o2(icepool, drms=range(-3, 4)):
    return [(icepool.d10 + m).map(lambda r: manoeuvre_table("good_order", r)) for m in drms]


def o3(icepool, n: int = 100):
    d6 = icepool.d6
    return (n @ d6) > (n @ d6)


def o4(icepool, n: int = 100):
    return n @ (icepool.d6 >= 4)


def o5(icepool, n: int = 10, keep: int = 3):
    return icepool.d6.pool(n).highest(keep).sum()


def o6(icepool, n: int = 20):
    d6 = icepool.d6
    attack = icepool.map(lambda hit, wound, save: int(hit >= 3 and wound >= 4 and save < 5),
                         d6, d6, d6)
    return n @ attack


def o7(icepool, us: list[Unit]):
    dice = []
    for u in us:
        side = "disorder" if u.disordered else "good_order"
        drm = manoeuvre_drm(u)
        dice.append((icepool.d10 + drm).map(lambda r, side=side: manoeuvre_table(side, r)))
    return icepool.tupleize(*dice)


def compute(icepool, workload: str, us: list[Unit]):
    if workload == "O7":
        return o7(icepool, us)
    return {"O1": o1, "O2": o2, "O3": o3, "O4": o4, "O5": o5, "O6": o6}[workload](icepool)


# --- comparing with umpire ----------------------------------------------------------------

def fractions(die) -> dict:
    """{outcome: exact chance} of an Icepool Die."""
    total = die.denominator()
    return {o: Fraction(q, total) for o, q in die.items() if q}


def key(workload: str, value):
    """umpire's JSON value as Icepool's outcome: a record is read as the tuple of O7."""
    if workload == "O7" and isinstance(value, dict) and set(value) == set(BATTALIONS):
        return tuple(value[name] for name in BATTALIONS)
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)  # never equal to an outcome of Icepool's
    return value


def compare_one(workload: str, mine: dict, answer: dict, where: str) -> str:
    if answer.get("method") != "exact":
        return f"not exact: {where}method {answer.get('method')!r}"
    theirs = {}
    for o in answer.get("outcomes", []):
        k = key(workload, o["value"])
        if k in theirs:
            return f"differs: {where}outcome {k!r} listed twice"
        theirs[k] = Fraction(o["probability"])
    if theirs == mine:
        return "ok"
    for o in sorted(set(mine) | set(theirs), key=repr):
        if mine.get(o) != theirs.get(o):
            return (f"differs: {where}outcome {o!r}: umpire {theirs.get(o, 'missing')}, "
                    f"Icepool {mine.get(o, 'missing')}")
    return "differs"  # not reached: unequal dicts differ at some key


def compare(workload: str, result, answer: dict) -> str:
    if "error" in answer:
        first = answer["error"][0] if answer["error"] else {}
        return f"not exact: umpire gave an error: {first.get('message', answer['error'])}"
    if isinstance(result, list):
        rows = answer.get("rows")
        if not isinstance(rows, list) or len(rows) != len(result):
            return f"differs: {len(result)} rows wanted, umpire gave {len(rows or [])}"
        at = list(SWEEPS[workload])
        for i, (die, row) in enumerate(zip(result, rows)):
            if row.get("at") != at[i]:
                return f"differs: row {i + 1} is at {row.get('at')!r}, wanted {at[i]}"
            said = compare_one(workload, fractions(die), row, f"row {row.get('at', i)}: ")
            if said != "ok":
                return said
        return "ok"
    return compare_one(workload, fractions(result), answer, "")


# --- facts each of Icepool's answers must show, reasoned from the dice --------------------

def assert_facts(workload: str, result) -> None:
    if workload == "O1":
        assert len(result) == 50
        for n, d in enumerate(result, 1):
            assert d.denominator() == 6 ** n and d.mean() == Fraction(7 * n, 2), n
            assert d.min_outcome() == n and d.max_outcome() == 6 * n, n
        assert result[2].quantity(10) == 27  # 3d6 rolls 10 in 27 ways of 216
    elif workload == "O2":
        # DRM m: the good-order side's bands 7+, 5-6, 3-4, 1-2, 0- hold r + m, r in 1..10.
        for m, d in zip(range(-3, 4), result):
            want = {}
            for r in range(1, 11):
                o = manoeuvre_table("good_order", r + m)
                want[o] = want.get(o, 0) + Fraction(1, 10)
            assert fractions(d) == want, m
        assert fractions(result[2]) == {"well_handled": Fraction(3, 10), "tardy": Fraction(1, 5),
                                        "hold": Fraction(1, 5), "disengage": Fraction(1, 5),
                                        "retire": Fraction(1, 10)}
    elif workload == "O3":
        f = fractions(result)
        # Symmetry: P(a > b) = P(a < b) = (1 - P(a = b)) / 2, and P(a = b) = sum of P(s)^2.
        s = fractions(100 @ __import__("icepool").d6)
        tie = sum(p * p for p in s.values())
        assert set(f) == {False, True} and f[True] == (1 - tie) / 2, f
    elif workload == "O4":
        f = fractions(result)
        assert f == {k: Fraction(comb(100, k), 2 ** 100) for k in range(101)}  # binomial
    elif workload == "O5":
        f = fractions(result)
        assert min(f) == 3 and max(f) == 18 and sum(f.values()) == 1
        # 18 needs three or more sixes of ten: 1 - P(0, 1 or 2 sixes).
        assert f[18] == 1 - sum(Fraction(comb(10, k) * 5 ** (10 - k), 6 ** 10) for k in range(3))
        # 3 needs the highest three dice to be 1s, so all ten.
        assert f[3] == Fraction(1, 6 ** 10)
    elif workload == "O6":
        f = fractions(result)
        p = Fraction(4, 6) * Fraction(3, 6) * Fraction(4, 6)  # hit, wound, not saved: 2/9
        assert p == Fraction(2, 9)
        assert f == {k: comb(20, k) * p ** k * (1 - p) ** (20 - k) for k in range(21)}
    elif workload == "O7":
        f = fractions(result)
        # Four independent D10s: 2 x 5 x 5 x 3 outcomes (the units' sides and DRMs +5, -1,
        # -2 on the disorder side, +3), each the product of its units' chances.
        assert len(f) == 150 and sum(f.values()) == 1, len(f)
        assert f[("well_handled", "retire", "shattered", "hold")] == (
            Fraction(9, 10) * Fraction(1, 10) * Fraction(2, 10) * Fraction(1, 10))


# --- --self-test: the spellings on small sizes against brute force ------------------------

def brute(values, how) -> dict:
    """Every combination of d6 faces, equally likely, through `how`."""
    out: dict = {}
    combos = list(itertools.product(range(1, 7), repeat=values))
    for c in combos:
        o = how(c)
        out[o] = out.get(o, 0) + Fraction(1, len(combos))
    return out


def self_test(icepool) -> None:
    assert icepool.__version__ == "2.1.3", icepool.__version__
    assert [fractions(d) for d in o1(icepool, 3)] == [brute(n, sum) for n in (1, 2, 3)]
    assert fractions(o3(icepool, 2)) == brute(4, lambda c: c[0] + c[1] > c[2] + c[3])
    assert fractions(o4(icepool, 4)) == brute(4, lambda c: sum(x >= 4 for x in c))
    assert fractions(o5(icepool, 5, 3)) == brute(5, lambda c: sum(sorted(c)[-3:]))
    # O6 on 2 attacks: six d6, three per attack, every die read (unread ones change nothing).
    def two_attacks(c):
        return sum(int(c[i] >= 3 and c[i + 1] >= 4 and c[i + 2] < 5) for i in (0, 3))
    assert fractions(o6(icepool, 2)) == brute(6, two_attacks)
    us = units()
    for name, u in zip(BATTALIONS, us):  # each unit alone, its D10 face by face
        side = "disorder" if u.disordered else "good_order"
        want: dict = {}
        for r in range(1, 11):
            o = (manoeuvre_table(side, r + manoeuvre_drm(u)),)
            want[o] = want.get(o, 0) + Fraction(1, 10)
        assert fractions(o7(icepool, [u])) == want, name
    for w in ("O1", "O2", "O3", "O4", "O5", "O6", "O7"):
        assert_facts(w, compute(icepool, w, us))
    print(json.dumps({"self-test": "ok", "icepool": icepool.__version__}))


def main() -> int:
    args = sys.argv[1:]
    import icepool  # not timed

    if args == ["--self-test"]:
        self_test(icepool)
        return 0
    if not args or args[0] not in ("O1", "O2", "O3", "O4", "O5", "O6", "O7"):
        print("usage: odds.py O1..O7 [--umpire FILE] | --self-test", file=sys.stderr)
        return 2
    workload = args[0]
    us = units() if workload == "O7" else []  # the state file is read before the clock
    start = time.perf_counter()
    result = compute(icepool, workload, us)
    seconds = time.perf_counter() - start
    out = {"workload": workload, "seconds": seconds}
    try:
        assert_facts(workload, result)
    except AssertionError as e:
        print(f"odds.py: Icepool's answer to {workload} fails its own check: {e!r}",
              file=sys.stderr)
        return 2
    if len(args) == 3 and args[1] == "--umpire":
        try:
            answer = json.loads(Path(args[2]).read_text())
        except ValueError:
            out["check"] = f"not exact: umpire's answer in {args[2]} is not JSON"
        else:
            out["check"] = compare(workload, result, answer)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
