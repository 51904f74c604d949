#!/usr/bin/env bash
# How `umpire check` scales with the ruleset: wall time and peak memory (GNU time's
# elapsed seconds and maximum resident set size) of the whole process, each the median of
# three runs, on rulesets `benches/scale_gen.py` generates (nothing generated is kept):
#   - Furious Reason's definitions copied, renamed, with big tables beside each copy, to
#     about 0.25, 0.5, 1, 2 and 4 MiB (4 MiB is the default limit on a ruleset file);
#   - one enum of 65,000 values nothing produces or reads.
# Each must check without an error (the enum's one warning is expected).
# Usage: bash benches/scale.sh OUT.json   (builds the release binary first; needs python3
# and GNU time at /usr/bin/time). Writes:
#   {"enum_65000": {"seconds": S, "rss_kib": K},
#    "sizes": [{"bytes": B, "lines": L, "seconds": S, "rss_kib": K}, ...]}
# Takes about half a minute on a quiet 2-core machine.
set -euo pipefail
out="${1:?usage: bash benches/scale.sh OUT.json}"
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/umpire"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: "SECONDS KIB"; the check must succeed.
once() {
  if ! /usr/bin/time -o "$tmp/time" -f "%e %M" "$bin" check "$1" >/dev/null 2>"$tmp/err"; then
    echo "umpire check $1 failed:" >&2
    head -40 "$tmp/err" >&2
    exit 1
  fi
  tail -1 "$tmp/time"
}

# Three runs: the median seconds and the median KiB, as a JSON object's fields.
measure() {
  local runs=()
  for _ in 1 2 3; do runs+=("$(once "$1")"); done
  printf '%s\n' "${runs[@]}" | python3 -c '
import sys, statistics
rows = [l.split() for l in sys.stdin if l.strip()]
s = statistics.median(float(r[0]) for r in rows)
k = statistics.median(int(r[1]) for r in rows)
print(f"\"seconds\": {s:.3f}, \"rss_kib\": {int(k)}")'
}

python3 benches/scale_gen.py enum 65000 >"$tmp/enum.rules"
enum=$(measure "$tmp/enum.rules")
echo "enum of 65,000 values: $enum" >&2

sizes=()
for mib in 0.25 0.5 1 2 4; do
  bytes=$(python3 -c "print(int($mib * 1024 * 1024))")
  python3 benches/scale_gen.py size "$bytes" >"$tmp/size.rules"
  b=$(wc -c <"$tmp/size.rules" | tr -d ' ')
  l=$(wc -l <"$tmp/size.rules" | tr -d ' ')
  m=$(measure "$tmp/size.rules")
  echo "$b bytes, $l lines: $m" >&2
  sizes+=("{\"bytes\": $b, \"lines\": $l, $m}")
done

joined=$(IFS=,; echo "${sizes[*]}")
printf '{"enum_65000": {%s}, "sizes": [%s]}\n' "$enum" "$joined" |
  python3 -c 'import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=2); print()' >"$out"
echo "wrote $out" >&2
