#!/usr/bin/env bash
# The exact-odds benchmarks O1-O7 of issue 19 ("Speed, side by side"), beside Icepool,
# plus hits(100) and 800d6 (umpire only), and their rows written into benches/RESULTS.md:
#
#   bash benches/prob_compare.sh           # alone (benches/compare.sh also calls it)
#   PROB_RUNS=5 ICEPOOL_RUNS=3 bash benches/prob_compare.sh   # fewer runs, rougher numbers
#   PROB_TIMEOUT=60 bash benches/prob_compare.sh   # give up on one umpire run after 60 s (600)
#
# Measured as a user meets them. umpire: the whole `umpire prob ... --format json` process,
# its output read through a pipe, LESS a trivial `umpire eval RULESET 1` process of the same
# ruleset (`umpire eval kriegspiel 1` for the dice questions), the two taking turns in one
# loop (PROB_RUNS pairs, 21 by default; medians). Icepool: its FIRST
# computation of the same exact distribution in a fresh Python process, the import not
# timed (peers/python/odds.py, time.perf_counter; ICEPOOL_RUNS processes, 7 by default;
# median). Each question is checked before it is timed: umpire's JSON must say
# `"method": "exact"` (every row of a sweep) and each outcome's exact fraction must equal
# Icepool's (odds.py compares them), or, for hits(100) and 800d6, the fractions reasoned
# from the dice below. A question that is not exact or differs is not timed on umpire's
# side (one run's time is shown) and its row says "not exact" or "differs".
#
# Writes $CARGO_TARGET_DIR/bench-meta/prob.json (default target/), umpire's answers in
# bench-meta/prob/, and the section "Exact odds beside Icepool" of benches/RESULTS.md
# (benches/results.py --prob). About 2 minutes on 2 busy cores with today's engine, most
# of it the sampled questions' single runs. Needs cargo and python3 3.11 or newer with venv;
# installs Icepool 2.1.3 into peers/python/.venv (from PyPI) the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
META="$TARGET/bench-meta"
mkdir -p "$META/prob"

echo "==> cargo build --release" >&2
cargo build --release --quiet

VENV=peers/python/.venv
if [ ! -x "$VENV/bin/python" ]; then
    echo "==> creating $VENV" >&2
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import icepool, sys; sys.exit(icepool.__version__ != "2.1.3")' 2>/dev/null; then
    echo "==> installing icepool 2.1.3 into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check icepool==2.1.3
fi
echo "==> peers/python/odds.py --self-test (Icepool's spellings against brute force)" >&2
"$VENV/bin/python" peers/python/odds.py --self-test > /dev/null

echo "==> O1-O7, hits(100), 800d6" >&2
"$VENV/bin/python" - "$TARGET/release/umpire" "$VENV/bin/python" "$META" <<'EOF'
import json, os, shlex, statistics, subprocess, sys, time
from fractions import Fraction
from math import comb
from pathlib import Path

umpire, python, meta = sys.argv[1], sys.argv[2], Path(sys.argv[3])
runs = int(os.environ.get("PROB_RUNS", "21"))
ice_runs = int(os.environ.get("ICEPOOL_RUNS", "7"))
timeout = float(os.environ.get("PROB_TIMEOUT", "600"))  # seconds for one umpire run
STATE = "examples/states/furious_reason_brigade.toml"
RECORD = ("{ guard_grenadiers: manoeuvre(brigade.guard_grenadiers), "
          "second_foot: manoeuvre(brigade.second_foot), "
          "county_militia: manoeuvre(brigade.county_militia), "
          "grenadiers: manoeuvre(brigade.grenadiers) }")


def facts_hits(answer):
    """hits(100): a hundred attacks hitting on 4+ (1/2 each): binomial(100, 1/2)."""
    return {k: Fraction(comb(100, k), 2 ** 100) for k in range(101)}


def facts_nd6(n):
    """nd6: only what is cheap to reason: 5n + 1 sums n..6n, total 1, the ends 1/6^n (all
    ones, all sixes), n + 1 and 6n - 1 in n ways each, symmetric about 7n/2."""
    def facts(answer):
        got = {o["value"]: Fraction(o["probability"]) for o in answer["outcomes"]}
        one = Fraction(1, 6 ** n)
        ok = (len(got) == 5 * n + 1 and set(got) == set(range(n, 6 * n + 1))
              and sum(got.values()) == 1 and got[n] == one and got[6 * n] == one
              and got[n + 1] == n * one and got[6 * n - 1] == n * one
              and all(got[s] == got[7 * n - s] for s in got))
        return got if ok else {f"(a fact of {n}d6 fails)": 1}
    return facts


# id, what, umpire's arguments, Icepool's workload or the facts it must show, target
QUESTIONS = [
    ("O1", "`dice(n, 6)` for n = 1..50 (a sweep)",
     ["prob", "kriegspiel", "dice(n, 6)", "--sweep", "n=1..50"], "O1"),
    ("O2", "the Manoeuvre Table for DRM -3..3 (a sweep)",
     ["prob", "furious_reason", "manoeuvre_table(good_order, D10 + m)", "--sweep", "m=-3..3"], "O2"),
    ("O3", "`100d6 > 100d6`", ["prob", "kriegspiel", "100d6 > 100d6"], "O3"),
    ("O4", "`count(100d6, at_least: 4)`", ["prob", "kriegspiel", "count(100d6, at_least: 4)"], "O4"),
    ("O5", "`highest(3, 10d6)`", ["prob", "kriegspiel", "highest(3, 10d6)"], "O5"),
    ("O6", "twenty attacks, 3+ / 4+ / save 5+ (`wounds(20)`, a recursive rule)",
     ["prob", "benches/prob/bench.rules", "wounds(20)"], "O6"),
    ("O7", "the brigade's four manoeuvres jointly (a record of four calls)",
     ["prob", "furious_reason", RECORD, "--state", STATE], "O7"),
    ("hits(100)", "a hundred 4+ attacks, each through a helper rule (a recursive rule)",
     ["prob", "benches/prob/bench.rules", "hits(100)"], facts_hits),
    ("800d6", "`800d6`", ["prob", "kriegspiel", "800d6"], facts_nd6(800)),
]


def run(argv):
    """The seconds the process took, and the process; None for one stopped at the timeout."""
    start = time.perf_counter()
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, None
    return time.perf_counter() - start, p


def say(msg):
    print(msg, file=sys.stderr, flush=True)


def exactness(answer):
    """None when every row is exact, else why not."""
    if "error" in answer:
        first = answer["error"][0] if answer["error"] else {}
        said = "" if answer.get("harness") else "umpire refused: "
        return f"not exact: {said}{first.get('message', '?')}"
    for row in answer.get("rows", [answer]):
        if row.get("method") != "exact":
            at = f" (row {row['at']})" if "at" in row else ""
            return f"not exact: umpire {row.get('method')}{at}"
    return None


rows = []
for qid, what, args, peer, in QUESTIONS:
    argv = [umpire, *args, "--format", "json"]
    say(f"--- {qid}: {' '.join(args)}")
    first_s, p = run(argv)
    stdout = p.stdout if p is not None else b""
    out_file = meta / "prob" / f"{qid}.json"
    out_file.write_bytes(stdout)
    row = {"id": qid, "what": what, "command": shlex.join(["umpire", *args, "--format", "json"]),
           "json_bytes": len(stdout)}
    try:
        answer = json.loads(stdout)
    except ValueError:
        why = (f"stopped after {timeout:g} s (PROB_TIMEOUT)" if p is None else
               f"exit {p.returncode}: " + p.stderr.decode(errors="replace").strip()[:200])
        answer = {"error": [{"message": f"umpire gave no JSON ({why})"}], "harness": True}
    check = exactness(answer)
    if isinstance(peer, str):  # Icepool's answer: checked on its first run, timed on all
        times = []
        for i in range(ice_runs):
            extra = ["--umpire", str(out_file)] if i == 0 else []
            ice = subprocess.run([python, "peers/python/odds.py", peer, *extra],
                                 stdout=subprocess.PIPE, text=True, check=True)
            got = json.loads(ice.stdout)
            times.append(got["seconds"])
            if i == 0 and check is None and got["check"] != "ok":
                check = got["check"]
        row["icepool_s"] = statistics.median(times)
        row["icepool_runs"] = ice_runs
        say(f"    Icepool {row['icepool_s'] * 1e3:.3g} ms (median of {ice_runs})")
    elif check is None:
        want = peer(answer)
        got = {o["value"]: Fraction(o["probability"]) for o in answer["outcomes"]}
        if got != want:
            bad = next(k for k in sorted(set(got) | set(want), key=repr)
                       if got.get(k) != want.get(k))
            check = f"differs: outcome {bad!r}: umpire {got.get(bad, 'missing')}, wanted {want.get(bad, 'missing')}"
    row["check"] = check or "exact, checked"
    row["exact"] = check is None
    if check is not None:
        say(f"    {check.upper() if check.startswith('differs') else check}")
        row["umpire_whole_s"] = first_s  # one run, for the record: not timed further
        row["umpire_runs"] = 1
    else:
        n = runs if first_s < 2 else max(3, runs // 4)
        # The floor: a trivial eval loading the same ruleset. Against kriegspiel's, a
        # question of the smaller bench.rules would look faster than it is, and one of
        # the larger furious_reason slower.
        trivial_argv = [umpire, "eval", args[1], "1"]
        row["baseline"] = shlex.join(["umpire", *trivial_argv[1:]])
        whole, trivial = [], []
        for _ in range(n):
            trivial.append(run(trivial_argv)[0])
            t, p = run(argv)
            if p is None or p.returncode != 0:
                sys.exit(f"{qid}: umpire failed on a timed run "
                         f"({'timed out' if p is None else f'exit {p.returncode}'})")
            whole.append(t)
        row["umpire_whole_s"] = statistics.median(whole)
        row["umpire_eval_s"] = statistics.median(trivial)
        # umpire's own work: the median of each pair's difference, and how far to trust
        # it: the pairs' interquartile range over the square root of their number (about
        # the standard error of a median of that many).
        diffs = [w - e for w, e in zip(whole, trivial)]
        q1, _, q3 = statistics.quantiles(diffs, n=4)
        row["umpire_net_s"] = statistics.median(diffs)
        row["umpire_noise_s"] = (q3 - q1) / len(diffs) ** 0.5
        row["umpire_runs"] = n
        say(f"    umpire {row['umpire_whole_s'] * 1e3:.3g} ms whole, "
            f"{row['umpire_net_s'] * 1e3:.3g} ± {row['umpire_noise_s'] * 1e3:.2g} ms less eval "
            f"(medians of {n} pairs)")
    rows.append(row)

(meta / "prob.json").write_text(json.dumps(rows, indent=2) + "\n")
EOF

echo "==> benches/RESULTS.md (its section on exact odds)" >&2
UMPIRE_TARGET="$TARGET" python3 benches/results.py --prob > "$META/RESULTS.md.new"
mv "$META/RESULTS.md.new" benches/RESULTS.md
sed -n '/^## Exact odds beside Icepool/,/^## Peak memory/p' benches/RESULTS.md | sed '$d'
