#!/usr/bin/env bash
# umpire's benchmarks and their peers (peers/), in one run on this machine, and
# benches/RESULTS.md written from what was measured:
#
#   bash benches/compare.sh
#
# Builds umpire in release, builds the peers (peers/rust: native Rust, Rhai and the
# hello-world binary), runs `cargo bench --bench adjudicate` (B1-B5; B5 is
# `umpire eval furious_reason '1 + 1'`, taking turns with the hello-world process in one
# loop), runs `peers/run.sh` (the peers' benches; Python and Icepool in
# peers/python/.venv), runs `benches/prob_compare.sh` (the exact odds O1-O7, hits(100) and
# 800d6, as whole `umpire prob` processes beside Icepool's first computation), counts
# instructions with `benches/callgrind.sh` (B1, B4, parse + check, B5: the figures that
# repeat on a noisy machine; skipped without valgrind), runs `benches/scale.sh` when it
# exists (`umpire check` of rulesets of growing size and of a 65,000-value enum), measures
# peak memory (RSS) with GNU time, and writes the tables of targets and ratios, with how
# long the run took. About 5 minutes on 2 busy cores, a few more with benches/scale.sh
# (RESULTS.md says how long its run took);
# the first run also compiles Rhai and criterion and installs Icepool from PyPI. Needs:
# cargo, python3 (3.11 or newer, with venv), GNU time at /usr/bin/time, crates.io and
# PyPI; valgrind for the instruction counts.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/time ] || missing+=("GNU time at /usr/bin/time (Debian: apt-get install time)")
python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
    || missing+=("python3 3.11 or newer with the venv module")
command -v cargo > /dev/null || missing+=("cargo")
if [ ${#missing[@]} -gt 0 ]; then
    printf 'benches/compare.sh needs: %s\n' "${missing[@]}" >&2
    exit 1
fi

# The arithmetic of the tables, before anything is timed.
python3 benches/results.py --self-test

TARGET="${CARGO_TARGET_DIR:-target}"
META="$TARGET/bench-meta"
mkdir -p "$META"
# Nothing of an earlier run's is read as this one's.
rm -f "$META/callgrind.json" "$META/scale.json" "$META/compare_seconds.txt"
started=$SECONDS

echo "==> cargo build --release" >&2
cargo build --release
echo "==> cargo build --release (peers/rust: the hello-world binary B5 takes turns with)" >&2
CARGO_TARGET_DIR=peers/rust/target cargo build --release --manifest-path peers/rust/Cargo.toml
rm -rf "$TARGET/criterion"
echo "==> cargo bench --bench adjudicate" >&2
UMPIRE_BENCH_META="$META" cargo bench --bench adjudicate -- --noplot

echo "==> peers/run.sh" >&2
bash peers/run.sh

echo "==> benches/prob_compare.sh" >&2
bash benches/prob_compare.sh

if command -v valgrind > /dev/null; then
    echo "==> benches/callgrind.sh" >&2
    bash benches/callgrind.sh "$META/callgrind.json" \
        || echo "benches/callgrind.sh failed: RESULTS.md will say the counts were not measured" >&2
else
    echo "==> no valgrind: the instruction counts are left out" >&2
fi

if [ -f benches/scale.sh ]; then
    echo "==> benches/scale.sh" >&2
    # Every `umpire check` parses and checks: none read from the cache of checked rulesets.
    UMPIRE_CACHE=off bash benches/scale.sh "$META/scale.json" \
        || { echo "benches/scale.sh failed: RESULTS.md will say the scale was not measured" >&2
             rm -f "$META/scale.json"; }
fi

echo "==> peak memory" >&2
U="$TARGET/release/umpire"
rss() { # prints the peak RSS in KiB of the command
    /usr/bin/time -f %M -o "$META/rss.tmp" "$@" > /dev/null
    cat "$META/rss.tmp"
}
{
    echo "{"
    echo "\"load all bundled\": $(rss "$U" check little_wars kriegspiel furious_reason horse_and_musket),"
    echo "\"exact manoeuvre\": $(rss "$U" prob furious_reason 'manoeuvre(brigade.second_foot)' --state examples/states/furious_reason_brigade.toml),"
    echo "\"exact 50d6\": $(rss "$U" prob kriegspiel '50d6'),"
    echo "\"hello-world\": $(rss peers/rust/target/release/hello)"
    echo "}"
} > "$META/rss.json"

# The peers' versions, as this run used them.
rhai=$(grep -A1 '^name = "rhai"$' peers/rust/Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
icepool=$(peers/python/.venv/bin/python -c 'import icepool; print(icepool.__version__)')
echo "{\"Rhai\": \"$rhai\", \"Icepool\": \"$icepool\"}" > "$META/versions.json"

echo $((SECONDS - started)) > "$META/compare_seconds.txt"
echo "==> benches/RESULTS.md" >&2
UMPIRE_TARGET="$TARGET" python3 benches/results.py > benches/RESULTS.md
cat benches/RESULTS.md
