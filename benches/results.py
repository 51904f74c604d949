"""Writes benches/RESULTS.md (to stdout) from one run of benches/compare.sh: umpire's
criterion estimates (target/criterion), the peers' (peers/results.json), the peak
memory (target/bench-meta/rss.json), the instruction counts (bench-meta/callgrind.json,
from benches/callgrind.sh), the checker's scale (bench-meta/scale.json, from
benches/scale.sh, when that script exists), the exact odds beside Icepool
(bench-meta/prob.json, from benches/prob_compare.sh) and how long the run took
(bench-meta/compare_seconds.txt). Every timed figure is the median of its run.

    python3 benches/results.py          # the whole file
    python3 benches/results.py --prob   # benches/RESULTS.md as it is, with its section
                                        # "Exact odds beside Icepool" written anew (what
                                        # benches/prob_compare.sh run alone does)
    python3 benches/results.py --self-test   # the scale section and the targets'
                                        # arithmetic on hand-written figures
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


MIB = 1024 * 1024
SCALE_SECONDS = 2  # the 65,000-value enum checks in under this many seconds
SCALE_RSS_KIB = 200 * 1024  # the largest ruleset checks in at most 200 MiB
SCALE_SPREAD = 2  # seconds per MiB within this factor over every size: linear


def read_json(path):
    """The file's JSON, or None when the file is not there."""
    return json.loads(path.read_text()) if path.exists() else None


def kib(k):
    return f"{k:,} KiB ({k / 1024:.3g} MiB)"


def duration(seconds):
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s} s" if m else f"{s} s"


def ratio_text(x):
    """A ratio to three significant figures, without an exponent."""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.3g}"


def mark(ok):
    return "met" if ok else "**missed**"


def count(n):
    return "—" if n is None else f"{n:,}"


class Targets:
    """The rows of a table of targets: what, the figures, the ratio, the target, met or
    missed, and by how much."""

    def __init__(self):
        self.rows = []

    def at_most(self, what, mine, peer, limit, figures="", instructions="—"):
        """umpire's time over the peer's, at most `limit`."""
        ratio = mine / peer
        ok = ratio <= limit
        missed = "" if ok else (f"{ratio / limit:.3g}×: ≤ {limit} needs umpire ≤ "
                                f"{t(peer * limit)}, not {t(mine)}")
        self.rows.append((what, figures or f"{t(mine)} / {t(peer)}", ratio_text(ratio),
                          f"≤ {limit}", mark(ok), missed, instructions))

    def at_least(self, what, peer, mine, limit, figures="", instructions="—"):
        """The peer's time over umpire's, at least `limit`."""
        ratio = peer / mine
        ok = ratio >= limit
        missed = "" if ok else (f"{limit / ratio:.3g}×: ≥ {limit} needs umpire ≤ "
                                f"{t(peer / limit)}, not {t(mine)}")
        self.rows.append((what, figures or f"{t(peer)} / {t(mine)}", ratio_text(ratio),
                          f"≥ {limit}", mark(ok), missed, instructions))

    def row(self, what, figures, ratio, target, result, missed="", instructions="—"):
        self.rows.append((what, figures, ratio, target, result, missed, instructions))

    def table(self, instructions=True):
        head = "| | Measured | Ratio | Target | | Missed by |"
        rule = "|---|---|---|---|---|---|"
        if instructions:
            head += " Instructions (callgrind) |"
            rule += "---|"
        out = [head, rule]
        for r in self.rows:
            cells = r if instructions else r[:-1]
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        return "\n".join(out)


def scale_shaped(scale):
    """Whether benches/scale.sh's JSON has the form results.py reads."""
    def run(r, *keys):
        # GNU time gives seconds to a hundredth: a quick run may be 0.
        return isinstance(r, dict) and all(
            isinstance(r.get(k), (int, float)) and (r[k] > 0 or k == "seconds" and r[k] == 0)
            for k in keys)
    return (isinstance(scale, dict) and run(scale.get("enum_65000"), "seconds", "rss_kib")
            and isinstance(scale.get("sizes"), list) and len(scale["sizes"]) > 0
            and all(run(r, "bytes", "lines", "seconds", "rss_kib") for r in scale["sizes"]))


def scale_rows(targets, scale, script=ROOT / "benches" / "scale.sh"):
    """The three scale targets, into `targets`; and the section "Scale with the ruleset"."""
    heading = "## Scale with the ruleset"
    why = None
    if not script.exists():
        why = "`benches/scale.sh` is not in this tree"
    elif scale is None:
        why = ("`benches/scale.sh` wrote no `bench-meta/scale.json` (see what "
               "`benches/compare.sh` printed)")
    elif not scale_shaped(scale):
        why = ("`bench-meta/scale.json` is not of the form {\"enum_65000\": {\"seconds\": S, "
               "\"rss_kib\": K}, \"sizes\": [{\"bytes\": B, \"lines\": L, \"seconds\": S, "
               "\"rss_kib\": K}, ...]}, with at least one size")
    if why is not None:
        for what, target in (
                ("Scale: an enum of 65,000 values nothing uses, `umpire check`",
                 f"< {SCALE_SECONDS} s"),
                ("Scale: peak RSS of `umpire check` of the largest ruleset",
                 f"≤ {SCALE_RSS_KIB:,} KiB (200 MiB)"),
                ("Scale: seconds per MiB over the sizes, the highest / the lowest",
                 f"≤ {SCALE_SPREAD} (linear)")):
            targets.row(what, "not measured", "—", target, "not measured", why)
        return f"{heading}\n\nNot measured: {why}.\n"
    sizes = sorted(scale["sizes"], key=lambda s: s["bytes"])
    enum = scale["enum_65000"]
    targets.row("Scale: an enum of 65,000 values nothing uses, `umpire check`",
                f"{enum['seconds']:.3g} s, {kib(enum['rss_kib'])}", "—",
                f"< {SCALE_SECONDS} s", mark(enum["seconds"] < SCALE_SECONDS),
                "" if enum["seconds"] < SCALE_SECONDS else
                f"{enum['seconds'] / SCALE_SECONDS:.3g}× over {SCALE_SECONDS} s")
    big = sizes[-1]
    rss_ok = big["rss_kib"] <= SCALE_RSS_KIB
    targets.row(f"Scale: peak RSS of `umpire check` of the largest ruleset "
                f"({big['bytes'] / MIB:.3g} MiB)",
                kib(big["rss_kib"]), "—", f"≤ {SCALE_RSS_KIB:,} KiB (200 MiB)", mark(rss_ok),
                "" if rss_ok else f"{big['rss_kib'] / SCALE_RSS_KIB:.3g}× over 200 MiB")
    per_mib = [s["seconds"] / (s["bytes"] / MIB) for s in sizes]
    what = f"Scale: seconds per MiB over {len(sizes)} sizes, the highest / the lowest"
    if min(per_mib) == 0:
        # A size checked within GNU time's hundredth of a second: no ratio to take.
        spread = ends = None
        linear = False
        targets.row(what, "a size timed at 0 s", "—", f"≤ {SCALE_SPREAD} (linear)",
                    "not measured", "a size checked in under GNU time's 0.01 s: "
                    "too quick to compare")
    else:
        spread = max(per_mib) / min(per_mib)
        ends = per_mib[-1] / per_mib[0]
        linear = spread <= SCALE_SPREAD
        targets.row(what, f"{min(per_mib):.3g} to {max(per_mib):.3g} s per MiB",
                    ratio_text(spread), f"≤ {SCALE_SPREAD} (linear)",
                    "met (linear)" if linear else "**missed**",
                    "" if linear else f"{spread / SCALE_SPREAD:.3g}×: not linear")
    out = [f"""{heading}

Measured by `bash benches/scale.sh` (run by `benches/compare.sh`; how it generates the
rulesets and times them is said there): `umpire check` of generated rulesets of several
sizes, and of an enum of 65,000 values that nothing uses, each as a whole process, its wall
time and peak RSS.

| Ruleset | Bytes | Lines | `umpire check` | Seconds per MiB | Peak RSS |
|---|---|---|---|---|---|"""]
    for s, pm in zip(sizes, per_mib):
        out.append(f"| {s['bytes'] / MIB:.3g} MiB | {s['bytes']:,} | {s['lines']:,} | "
                   f"{s['seconds']:.3g} s | {pm:.3g} | {kib(s['rss_kib'])} |")
    out.append(f"| an enum of 65,000 values | | | {enum['seconds']:.3g} s | | "
               f"{kib(enum['rss_kib'])} |")
    verdict = ("A size was timed at 0 s, so no ratio is taken." if spread is None else
               f"Here the highest is {spread:.3g}× the lowest "
               f"({'linear' if linear else '**not linear**'}), and the largest size's is "
               f"{ends:.3g}× the smallest's.")
    out.append(f"""
Linear, the criterion: the time grows linearly with the size when the seconds per MiB stay
within a factor of {SCALE_SPREAD} over every size measured: the highest of them over the lowest is
at most {SCALE_SPREAD}. Work that grew with the square of the size would double the seconds per
MiB each time the size doubles, and grow them {sizes[-1]['bytes'] / sizes[0]['bytes']:.3g}× from the smallest size here to the
largest. Each figure is a whole process, so its fixed start-up weighs most on the smallest
size. {verdict}
""")
    return "\n".join(out)


def callgrind_section(cg, u, hello):
    heading = "## Instructions (callgrind)"
    if cg is None:
        return (f"{heading}\n\nNot measured: `benches/callgrind.sh` did not run, or failed "
                "(it needs valgrind; see what `benches/compare.sh` printed).\n")
    clock = {
        "b1": t(u["umpire manoeuvre"]),
        "b4": t(u["umpire parse+check 1000 lines"] / cg["b4_lines"]),
        "b5": t(u["umpire eval process"]),
    }
    return f"""{heading}

Counted by `bash benches/callgrind.sh` (run by `benches/compare.sh`; {cg.get("valgrind", "valgrind")}): the
instructions of exactly what the clocks time, counted rather than timed, so they repeat
to a fraction of a percent however busy the machine is. Compare one run of umpire with
another by these; the clocks are what the ratios with the peers use (the peers are not
counted). Instructions in the kernel (starting a process, page faults) are not counted,
so the two whole-process counts are no stand-in for B5's ratio.

| Workload | Instructions | The clock beside it |
|---|---|---|
| B1 one untraced manoeuvre (the bench binary doing B1 20,001 times less once, over 20,000) | {count(cg["b1_per_manoeuvre"])} | {clock["b1"]} |
| B4 parse + check, per line of the generated {cg["b4_lines"]:,}-line ruleset (11 times less once, over 10) | {count(cg["b4_per_line"])} | {clock["b4"]} |
| `umpire check furious_reason` (the bundled ruleset parsed and checked, `UMPIRE_CACHE=off`), whole process | {count(cg["parse_check_furious_reason"])} | |
| B5 `umpire eval furious_reason '1 + 1'`, whole process (run once before: as the clock finds it) | {count(cg["b5_eval_process"])} | {clock["b5"]} |
| the hello-world process | {count(cg["hello_process"])} | {t(hello)} |
"""


def self_test():
    """The scale section and the targets' arithmetic on hand-written figures, each
    expectation worked out by hand."""
    def rows(scale, script=Path(__file__)):
        targets = Targets()
        text = scale_rows(targets, scale, script)
        return [r[2:6] for r in targets.rows], text

    size = lambda mib, seconds, rss: {"bytes": int(mib * MIB), "lines": int(mib * 40000),
                                      "seconds": seconds, "rss_kib": rss}
    # Linear: 1.2, 1.1, 1.05, 1.05, 1.075 s per MiB (given out of order); the highest over
    # the lowest is 1.2 / 1.05 = 1.14. 190,000 KiB is within 204,800; 1.2 s within 2 s.
    linear = {"enum_65000": {"seconds": 1.2, "rss_kib": 30000},
              "sizes": [size(1, 1.05, 70000), size(0.25, 0.3, 20000), size(0.5, 0.55, 38000),
                        size(2, 2.1, 130000), size(4, 4.3, 190000)]}
    got, text = rows(linear)
    assert got == [("—", "< 2 s", "met", ""),
                   ("—", "≤ 204,800 KiB (200 MiB)", "met", ""),
                   ("1.14", "≤ 2 (linear)", "met (linear)", "")], got
    assert "| 0.25 MiB | 262,144 | 10,000 | 0.3 s | 1.2 |" in text, text
    assert "| 4 MiB | 4,194,304 | 160,000 | 4.3 s | 1.07 |" in text, text
    assert "the largest size's is 0.896× the smallest's" in text, text
    # Quadratic: the time quadruples as the size doubles, so the seconds per MiB go
    # 0.4, 0.8, 1.6, 3.2, 6.4: 16 apart, 8 times the 2 allowed; 400,000 KiB is
    # 400,000 / 204,800 = 1.95 times 200 MiB; 70 s is 35 times 2 s.
    quadratic = {"enum_65000": {"seconds": 70, "rss_kib": 30000},
                 "sizes": [size(0.25 * 2 ** i, 0.1 * 4 ** i, 20000) for i in range(4)]
                 + [size(4, 25.6, 400000)]}
    got, text = rows(quadratic)
    assert got == [("—", "< 2 s", "**missed**", "35× over 2 s"),
                   ("—", "≤ 204,800 KiB (200 MiB)", "**missed**", "1.95× over 200 MiB"),
                   ("16", "≤ 2 (linear)", "**missed**", "8×: not linear")], got
    assert "(**not linear**)" in text, text
    # A size timed at 0 s: no ratio.
    got, text = rows({**linear, "sizes": [size(0.25, 0, 20000), size(4, 4.3, 190000)]})
    assert got[2][2] == "not measured" and "no ratio is taken" in text, (got, text)
    # Not measured: no script, no JSON, a JSON of another shape.
    for scale, script, why in [
            (linear, Path("/nonexistent/scale.sh"), "is not in this tree"),
            (None, Path(__file__), "wrote no `bench-meta/scale.json`"),
            ({"enum_65000": {"seconds": 1}, "sizes": []}, Path(__file__), "is not of the form")]:
        got, text = rows(scale, script)
        assert [r[2] for r in got] == ["not measured"] * 3, got
        assert why in text and why in got[0][3], (why, text)
    # The ratios: 651 ns against 20.1 ns is 32.4, 3.24 times the 10 allowed, which needs
    # 201 ns; Python's 345 ns over 651 ns is 0.53, 5.66 times short of 3, which needs 115 ns.
    targets = Targets()
    targets.at_most("B1", 651, 20.1, 10)
    targets.at_least("B1 Python", 345, 651, 3)
    assert targets.rows[0][2:6] == ("32.4", "≤ 10", "**missed**",
                                    "3.24×: ≤ 10 needs umpire ≤ 201 ns, not 651 ns"), targets.rows
    assert targets.rows[1][2:6] == ("0.53", "≥ 3", "**missed**",
                                    "5.66×: ≥ 3 needs umpire ≤ 115 ns, not 651 ns"), targets.rows
    targets.at_most("met", 1.5e6, 1e6, 2)
    assert targets.rows[2][2:6] == ("1.5", "≤ 2", "met", ""), targets.rows
    assert ratio_text(5776.4) == "5,776" and duration(754) == "12 min 34 s"
    print("benches/results.py: self-test passed")


if sys.argv[1:] == ["--self-test"]:
    self_test()
    sys.exit(0)

u = umpire_ns()
p = json.loads((ROOT / "peers" / "results.json").read_text())
rss = json.loads((META / "rss.json").read_text())
lines = int((META / "parse_check_lines.txt").read_text())
cg = read_json(META / "callgrind.json")
scale = read_json(META / "scale.json")
took = META / "compare_seconds.txt"
took = duration(float(took.read_text())) if took.exists() else None

b1 = u["umpire manoeuvre"]
b2m = u["umpire 1M manoeuvres"]
b2r = u["umpire 1M 2d6+drm"]
b3 = u["umpire exact manoeuvre"]
b3n = u["umpire exact Nd6 1..50"]
b3_50 = u["umpire exact 50d6"]
b4 = u["umpire parse+check 1000 lines"] / lines
b5 = u["umpire eval process"]
ns = {k[:-3]: v for k, v in p.items() if k.endswith("_ns")}
ns.update({k[:-2]: v * 1e9 for k, v in p.items() if k.endswith("_s")})
# B5's hello-world, timed in turn with umpire's process in the same loop (benches/
# adjudicate.rs), when there; else the peers' own run.
hello = u.get("hello-world process, in turn with umpire", ns["hello-world process"])

per_manoeuvre = "—" if cg is None else f"{cg['b1_per_manoeuvre']:,} per manoeuvre"
targets = Targets()
targets.at_most("B1 one manoeuvre: umpire / native Rust", b1, ns["native manoeuvre"], 10,
                instructions=per_manoeuvre)
targets.at_least("B1 one manoeuvre: Python / umpire", ns["python manoeuvre"], b1, 3,
                 instructions=per_manoeuvre)
targets.at_most("B2 a million manoeuvres: umpire / native Rust", b2m,
                ns["native 1M manoeuvres"], 10, instructions=per_manoeuvre)
targets.at_least("B2 a million manoeuvres: Python / umpire", ns["python 1M manoeuvres"], b2m, 3,
                 instructions=per_manoeuvre)
targets.at_most("B2 a million `2d6 + DRM`: umpire / native Rust", b2r,
                ns["native 1M 2d6+drm"], 10)
targets.at_least("B2 a million `2d6 + DRM`: Python / umpire", ns["python 1M 2d6+drm"], b2r, 3)
targets.at_least("B4 parse and check, per line: Rhai compile / umpire parse + check",
                 ns["rhai compile per line"], b4, 1,
                 figures=f"{t(ns['rhai compile per line'])} / {t(b4)} per line ({lines:,} lines)",
                 instructions="—" if cg is None else f"{cg['b4_per_line']:,} per line")
targets.at_most("B5 `umpire eval furious_reason '1 + 1'` / the hello-world process, whole "
                "processes", b5, hello, 2,
                figures=f"{t(b5)} / {t(hello)} (taking turns in one loop)",
                instructions="—" if cg is None else
                f"{cg['b5_eval_process']:,} / {count(cg['hello_process'])}")
scale_text = scale_rows(targets, scale)

# Beside the peers, with no target of issue 20's.
figures = Targets()
figures.row("B1 one manoeuvre: Rhai / umpire", f"{t(ns['rhai manoeuvre'])} / {t(b1)}",
            ratio_text(ns['rhai manoeuvre'] / b1), "—", "no target")
figures.row("B2 a million manoeuvres: Rhai / umpire",
            f"{t(ns['rhai 1M manoeuvres'])} / {t(b2m)}",
            ratio_text(ns['rhai 1M manoeuvres'] / b2m), "—", "no target")
figures.row("B2 a million `2d6 + DRM`: Rhai / umpire",
            f"{t(ns['rhai 1M 2d6+drm'])} / {t(b2r)}",
            ratio_text(ns['rhai 1M 2d6+drm'] / b2r), "—", "no target")
figures.at_least("B3 exact manoeuvre: Icepool / umpire", ns["icepool exact manoeuvre"], b3, 100)
figures.at_least("B3 exact Nd6 for N = 1..50: Icepool / umpire", ns["icepool Nd6 1..50"], b3n,
                 100)
figures.at_least("B3 exact 50d6: Icepool / umpire", ns["icepool Nd6 N=50"], b3_50, 100)
figures.row("B3 exact manoeuvre: umpire / native Rust (the floor)",
            f"{t(b3)} / {t(ns['native exact manoeuvre'])}",
            ratio_text(b3 / ns['native exact manoeuvre']), "—", "no target")

cpu = ""
try:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
# The commit measured (with "+ changes" when the tree differed from it).
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
# (This file, being written, is not a change to what was measured.)
dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!benches/RESULTS.md"], capture_output=True, text=True).stdout.strip()
measured = f"commit {commit}{' + changes' if dirty else ''}" if commit else "this tree"

versions = read_json(META / "versions.json") or {}
peer_versions = ", ".join(f"{k} {v}" for k, v in versions.items())
prob = prob_section()

print(f"""# Benchmarks: umpire beside its peers

Measured in one run of `bash benches/compare.sh` of {measured} on {date.today().isoformat()}{f", which took {took}" if took else ""}: {cpu or platform.machine()},
{rustc}, {platform.python_implementation()} {platform.python_version()}{", " + peer_versions if peer_versions else ""}. Every timed figure is a
median. Each bench checks its result before it is timed (`benches/adjudicate.rs`,
`peers/`). Ratios compare runs of the same workload on the same machine in the same run;
the machine is a noisy 2-core one, so take the second significant figure loosely, and
compare one run of umpire with another by the instruction counts (callgrind), which repeat.

The workload: Furious Reason's manoeuvre for `brigade.second_foot` of
`examples/states/furious_reason_brigade.toml` (the unit's die roll modifiers from the
state, the Manoeuvre Table, a seeded D10) — see `peers/README.md` for how each peer
writes it. B4: a generated ruleset of modifier lists, two-column tables and rules (umpire)
beside a generated Rhai script of the same shapes. B5: `umpire eval furious_reason '1 + 1'`
as a whole process beside a hello-world Rust process, the two taking turns in one loop.

## Issue 20's targets

{targets.table()}

## Beside the peers: Rhai, and issue 10's exact odds in process (B3)

{figures.table(instructions=False)}

{callgrind_section(cg, u, hello)}
{scale_text}{"" if prob is None else chr(10) + prob}
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
print("""
Reproduce: `bash benches/compare.sh` (writes this file).""")
