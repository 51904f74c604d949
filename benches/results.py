"""Writes benches/RESULTS.md (to stdout) from one run of benches/compare.sh: umpire's
criterion estimates (target/criterion), the peers' (peers/results.json), the peak
memory (target/bench-meta/rss.json) and the exact odds beside Icepool
(target/bench-meta/prob.json, from benches/prob_compare.sh). Every figure is the median
of its run.

    python3 benches/results.py          # the whole file
    python3 benches/results.py --prob   # benches/RESULTS.md as it is, with its section
                                        # "Exact odds beside Icepool" written anew (what
                                        # benches/prob_compare.sh run alone does)
"""

import json
import os
import platform
import subprocess
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / os.environ.get("UMPIRE_TARGET", "target")
CRIT = TARGET / "criterion"
META = TARGET / "bench-meta"


def umpire_ns():
    """function id -> median ns, for every criterion bench of umpire's."""
    out = {}
    for f in CRIT.glob("**/new/benchmark.json"):
        b = json.loads(f.read_text())
        est = json.loads((f.parent / "estimates.json").read_text())
        # A bench outside a group has its name as the group and no function id.
        out[b["function_id"] or b["group_id"]] = est["median"]["point_estimate"]
    return out


def t(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


PROB_HEADING = "## Exact odds beside Icepool (O1–O7)"
PROB_TARGET = 10  # umpire at least this many times faster than Icepool


def prob_section():
    """The O1-O7 rows (and hits(100), 800d6) from bench-meta/prob.json, or None."""
    f = META / "prob.json"
    if not f.exists():
        return None
    rows = json.loads(f.read_text())
    out = [f"""{PROB_HEADING}

Measured by `bash benches/prob_compare.sh` (also run by `benches/compare.sh`) on
{date.fromtimestamp(f.stat().st_mtime).isoformat()}, as a user meets them. umpire: the whole `umpire prob ... --format json`
process, its output read through a pipe, less a trivial `umpire eval RULESET 1` process of
the same ruleset (the floor: starting and loading it), the two taking turns in one loop;
the median of the pairs' differences, ± their interquartile range over √pairs. Icepool:
its first computation of the same exact distribution in a fresh Python process, the import
not timed (`peers/python/odds.py`; the median of fresh processes).

Each question is checked first: umpire's answer must be exact (`"method": "exact"`, every
row of a sweep) and every outcome's fraction equal to Icepool's (for hits(100) and 800d6,
to what the dice give: see the script). A question that is not exact, or differs, is not
timed on umpire's side (one run's whole process is shown) and misses its target. Targets:
every one exact; Icepool / umpire ≥ {PROB_TARGET}, met only when umpire's time plus twice its ± is
within a tenth of Icepool's; hits(100) in under 1 s for the whole process.

| | Question | Checked | umpire, whole process | umpire less `eval` | Icepool, first computation | Icepool / umpire | Target | | Missed by |
|---|---|---|---|---|---|---|---|---|---|"""]
    for r in rows:
        exact = r["exact"]
        whole = r["umpire_whole_s"] * 1e9
        net = r.get("umpire_net_s")
        ice = r.get("icepool_s")
        whole_text = t(whole) + ("" if exact else " (one run)")
        noise = r.get("umpire_noise_s", 0.0)
        net_text = "—" if net is None else (
            (t(net * 1e9) if net > 0 else "≤ 0") + f" ± {t(noise * 1e9)}")
        ice_text = t(ice * 1e9) if ice is not None else "—"
        if ice is not None:
            target = f"exact, ≥ {PROB_TARGET}"
            # The ratio from the medians; met only when even umpire's time plus twice its
            # noise is within a tenth of Icepool's (a ratio from noise is no ratio).
            ratio = ice / net if exact and net > 0 else None
            ratio_text = f"{ratio:.3g}" if ratio is not None else "—"
            goal = ice / PROB_TARGET
            ok = exact and net + 2 * noise <= goal
            if not exact:
                missed = r["check"]
            elif ok:
                missed = ""
            elif net - 2 * noise > goal:
                missed = (f"{net / goal:.3g}× too slow: {PROB_TARGET}× would be "
                          f"{t(goal * 1e9)} less eval, not {t(net * 1e9)} "
                          f"(its JSON: {r['json_bytes']:,} bytes)")
            else:
                missed = (f"not shown: umpire's {net_text} less eval is too near the noise "
                          f"of a process to tell; {PROB_TARGET}× needs it under {t(goal * 1e9)}")
        elif r["id"] == "hits(100)":
            target = "exact, < 1 s whole"
            ratio_text = "—"
            ok = exact and whole < 1e9
            missed = r["check"] if not exact else (
                "" if ok else f"{t(whole - 1e9)} over 1 s")
        else:
            target = "exact"
            ratio_text = "—"
            ok = exact
            missed = "" if ok else r["check"]
        mark = "met" if ok else "**missed**"
        check = "exact" if exact else ("**differs**" if r["check"].startswith("differs")
                                       else "**not exact**")
        missed = missed.replace("|", "\\|")
        out.append(f"| {r['id']} | {r['what']} | {check} | {whole_text} | {net_text} | "
                   f"{ice_text} | {ratio_text} | {target} | {mark} | {missed} |")
    out.append("")
    out.append("The commands, as run, and the trivial process taken off:")
    out.append("")
    for r in rows:
        less = f" less `{r['baseline']}`" if "baseline" in r else ""
        out.append(f"- {r['id']}: `{r['command']}`{less}")
    out.append("")
    return "\n".join(out)


if sys.argv[1:] == ["--prob"]:
    # benches/prob_compare.sh alone: the rest of RESULTS.md as it stands.
    section = prob_section()
    if section is None:
        sys.exit(f"no {META / 'prob.json'}: run benches/prob_compare.sh")
    text = (ROOT / "benches" / "RESULTS.md").read_text()
    if PROB_HEADING in text:
        start = text.index(PROB_HEADING)
        end = text.find("\n## ", start + len(PROB_HEADING))
        text = text[:start] + section + ("\n" + text[end + 1:] if end >= 0 else "")
    elif "## Peak memory" in text:
        at = text.index("## Peak memory")
        text = text[:at] + section + "\n" + text[at:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    sys.stdout.write(text)
    sys.exit(0)


u = umpire_ns()
p = json.loads((ROOT / "peers" / "results.json").read_text())
rss = json.loads((META / "rss.json").read_text())
lines = int((META / "parse_check_lines.txt").read_text())

b1 = u["umpire manoeuvre"]
b2m = u["umpire 1M manoeuvres"]
b2r = u["umpire 1M 2d6+drm"]
b3 = u["umpire exact manoeuvre"]
b3n = u["umpire exact Nd6 1..50"]
b3_50 = u["umpire exact 50d6"]
b4 = u["umpire parse+check 1000 lines"] / lines
b5 = u["umpire eval process"]
native = p["native manoeuvre_ns"]
rhai = p["rhai manoeuvre_ns"]
py = p["python manoeuvre_ns"]
icepool = p["icepool exact manoeuvre_ns"]
rhai_line = p["rhai compile per line_ns"]
# B5's hello-world, timed in turn with umpire's process in the same loop (benches/
# adjudicate.rs), when there; else the peers' own run.
hello = u.get("hello-world process, in turn with umpire", p["hello-world process_ns"])


def row(what, ratio, target, ok, note=""):
    mark = "met" if ok else "**missed**"
    return f"| {what} | {ratio:.3g} | {target} | {mark} | {note} |"


cpu = ""
try:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
versions = json.loads((META / "versions.json").read_text()) if (META / "versions.json").exists() else {}
peer_versions = ", ".join(f"{k} {v}" for k, v in versions.items())

print(f"""# Benchmarks: umpire beside its peers

Measured in one run of `bash benches/compare.sh` on {date.today().isoformat()}: {cpu or platform.machine()},
{rustc}, {platform.python_implementation()} {platform.python_version()}{", " + peer_versions if peer_versions else ""}. Every figure is a
median. Each bench checks its result before it is timed (`benches/adjudicate.rs`,
`peers/`). Ratios compare runs of the same workload on the same machine in the same run;
the machine is a noisy 2-core one, so take the second significant figure loosely.

The workload: Furious Reason's manoeuvre for `brigade.second_foot` of
`examples/states/furious_reason_brigade.toml` (the unit's die roll modifiers from the
state, the Manoeuvre Table, a seeded D10) — see `peers/README.md` for how each peer
writes it.

## Ratios

| Ratio | Measured | Target | | |
|---|---|---|---|---|
{row("B1 umpire / native Rust, one manoeuvre", b1 / native, "≤ 10", b1 / native <= 10, f"{t(b1)} / {t(native)}")}
{row("B1 Rhai / umpire", rhai / b1, "≥ 45 (from the issue's estimates)", rhai / b1 >= 45, f"{t(rhai)} / {t(b1)}")}
{row("B1 Python / umpire", py / b1, "≥ 7 (from the issue's estimates)", py / b1 >= 7, f"{t(py)} / {t(b1)}")}
{row("B2 umpire / native, 1M manoeuvres", b2m / (p["native 1M manoeuvres_s"] * 1e9), "≤ 10", b2m / (p["native 1M manoeuvres_s"] * 1e9) <= 10, f"{t(b2m)} / {t(p['native 1M manoeuvres_s'] * 1e9)}")}
{row("B2 Rhai / umpire, 1M manoeuvres", p["rhai 1M manoeuvres_s"] * 1e9 / b2m, "> 1", p["rhai 1M manoeuvres_s"] * 1e9 > b2m, f"{t(p['rhai 1M manoeuvres_s'] * 1e9)} / {t(b2m)}")}
{row("B2 Python / umpire, 1M manoeuvres", p["python 1M manoeuvres_s"] * 1e9 / b2m, "> 1", p["python 1M manoeuvres_s"] * 1e9 > b2m, f"{t(p['python 1M manoeuvres_s'] * 1e9)} / {t(b2m)}")}
{row("B2 umpire / native, 1M `2d6 + DRM`", b2r / (p["native 1M 2d6+drm_s"] * 1e9), "≤ 10", b2r / (p["native 1M 2d6+drm_s"] * 1e9) <= 10, f"{t(b2r)} / {t(p['native 1M 2d6+drm_s'] * 1e9)}")}
{row("B2 Python / umpire, 1M `2d6 + DRM`", p["python 1M 2d6+drm_s"] * 1e9 / b2r, "> 1", p["python 1M 2d6+drm_s"] * 1e9 > b2r, f"{t(p['python 1M 2d6+drm_s'] * 1e9)} / {t(b2r)}")}
{row("B3 Icepool / umpire, exact manoeuvre", icepool / b3, "≥ 100", icepool / b3 >= 100, f"{t(icepool)} / {t(b3)}")}
{row("B3 Icepool / umpire, exact Nd6 for N = 1..50", p["icepool Nd6 1..50_ns"] / b3n, "≥ 100", p["icepool Nd6 1..50_ns"] / b3n >= 100, f"{t(p['icepool Nd6 1..50_ns'])} / {t(b3n)}")}
{row("B3 Icepool / umpire, exact 50d6", p["icepool Nd6 N=50_ns"] / b3_50, "≥ 100", p["icepool Nd6 N=50_ns"] / b3_50 >= 100, f"{t(p['icepool Nd6 N=50_ns'])} / {t(b3_50)}")}
{row("B3 umpire / native, exact manoeuvre", b3 / p["native exact manoeuvre_ns"], "(the floor)", True, f"{t(b3)} / {t(p['native exact manoeuvre_ns'])}")}
{row("B4 Rhai compile / umpire parse + check, per line", rhai_line / b4, "≥ 3", rhai_line / b4 >= 3, f"{t(rhai_line)} / {t(b4)} per line ({lines} lines; Rhai's compile parses and optimises, umpire's also type-checks and analyses the dice)")}
{row("B5 umpire eval process / hello-world process", b5 / hello, "≤ 2", b5 / hello <= 2, f"{t(b5)} / {t(hello)} (taking turns in one loop)")}
{"" if prob_section() is None else chr(10) + prob_section()}
## Peak memory (RSS, KiB)

| Process | Peak RSS |
|---|---|
| `umpire check` of all four bundled rulesets | {rss["load all bundled"]} |
| `umpire prob` of the manoeuvre (B3) | {rss["exact manoeuvre"]} |
| `umpire prob kriegspiel 50d6` | {rss["exact 50d6"]} |
| a hello-world Rust process | {rss["hello-world"]} |

## Every figure

| Bench | Median |
|---|---|""")
for k in sorted(u):
    print(f"| umpire: {k} | {t(u[k])} |")
for k in sorted(p):
    v = p[k]
    if k.endswith("_lines"):
        print(f"| peer: {k[:-6]} (lines) | {v} |")
    elif k.endswith("_s"):
        print(f"| peer: {k[:-2]} | {t(v * 1e9)} |")
    else:
        print(f"| peer: {k[:-3]} | {t(v)} |")
print(f"""
Reproduce: `bash benches/compare.sh` (writes this file).""")
