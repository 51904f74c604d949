#!/usr/bin/env bash
# umpire's benchmarks and their peers (peers/), in one run on this machine, and
# benches/RESULTS.md written from what was measured:
#
#   bash benches/compare.sh
#
# Builds umpire in release, runs `cargo bench --bench adjudicate` (B1-B5), runs
# `peers/run.sh` (native Rust, Rhai, Python, Icepool, a hello-world process), measures
# peak memory (RSS) with /usr/bin/time, and writes the table of ratios. About 6-8
# minutes on 2 cores once everything is built; the first run also compiles Rhai and
# criterion and installs Icepool into peers/python/.venv.
set -euo pipefail
cd "$(dirname "$0")/.."
META=target/bench-meta
mkdir -p "$META"

echo "==> cargo build --release" >&2
cargo build --release
rm -rf target/criterion
echo "==> cargo bench --bench adjudicate" >&2
UMPIRE_BENCH_META="$META" cargo bench --bench adjudicate -- --noplot

echo "==> peers/run.sh" >&2
bash peers/run.sh

echo "==> peak memory" >&2
U=target/release/umpire
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

echo "==> benches/RESULTS.md" >&2
python3 benches/results.py > benches/RESULTS.md
cat benches/RESULTS.md
