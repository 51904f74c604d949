#!/usr/bin/env bash
# Instructions counted by callgrind (repeatable where wall-clock is noisy):
#   parse+check  — `umpire check furious_reason` (the bundled 460-line ruleset), whole process
#   B1           — one untraced Furious Reason manoeuvre: (prob --samples 20001) - (--samples 1),
#                  divided by 20,000 (the sampler runs the evaluator once per sample)
# Usage: bash benches/callgrind.sh   (builds the release binary first; needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/umpire"
count() {
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}'
  rm -f "$out"
}
check=$(count "$bin" check furious_reason)
q='manoeuvre(brigade.second_foot)'
st=examples/states/furious_reason_brigade.toml
many=$(count "$bin" prob furious_reason "$q" --state "$st" --samples 20001 --seed 1)
one=$(count "$bin" prob furious_reason "$q" --state "$st" --samples 1 --seed 1)
echo "parse+check (umpire check furious_reason): $check instructions"
echo "B1 (one untraced manoeuvre, sampled):       $(( (many - one) / 20000 )) instructions"
