#!/usr/bin/env bash
# Instructions counted by callgrind: repeatable where the clocks of a noisy 2-core machine
# are not. Each figure is the instruction count of exactly what a bench times:
#   B1           — one untraced Furious Reason manoeuvre, B1's own workload: the bench
#                  binary (benches/adjudicate.rs) run with UMPIRE_BENCH_COUNT=b1:20001
#                  less b1:1, divided by 20,000 (the loading cancels out)
#   B4           — parse + check of B4's generated ruleset, per line: b4:11 less b4:1,
#                  divided by 10 and by its line count
#   parse+check  — `umpire check furious_reason` (the bundled 460-line ruleset), the whole
#                  process, with UMPIRE_CACHE=off (so it parses and checks, cache or none)
#   B5           — `umpire eval furious_reason '1 + 1'` and the hello-world peer, whole
#                  processes (umpire run once first, as the B5 clock finds it: a cache warm)
#                  — instructions in user space only: a process's start in the kernel is
#                  not counted, so these two are no stand-in for B5's ratio
# Usage: bash benches/callgrind.sh [OUT.json]   (builds the release binary and the bench
# binary; the hello-world figure when peers/rust is built; needs valgrind). Prints the
# figures; with OUT.json also writes them there, for benches/results.py. About two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "benches/callgrind.sh needs valgrind (Debian: apt-get install valgrind)" >&2; exit 1; }
out_json="${1:-}"
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/umpire"
bench=$(cargo bench --bench adjudicate --no-run --message-format=json 2> /dev/null \
    | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "adjudicate" and m.get("executable"):
        print(m["executable"])
')
[ -x "$bench" ] || { echo "benches/callgrind.sh: could not build the bench binary (cargo bench --bench adjudicate --no-run)" >&2; exit 1; }
hello=peers/rust/target/release/hello

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # prints the instructions the command runs; its output is kept in $tmp/stdout
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" > "$tmp/stdout" 2> /dev/null
  grep -E '^(summary|totals):' "$tmp/cg.out" | head -1 | awk '{print $2}'
}

check=$(UMPIRE_CACHE=off count "$bin" check furious_reason)
b1_many=$(UMPIRE_BENCH_COUNT=b1:20001 count "$bench")
b1_one=$(UMPIRE_BENCH_COUNT=b1:1 count "$bench")
b1=$(( (b1_many - b1_one) / 20000 ))
b4_many=$(UMPIRE_BENCH_COUNT=b4:11 count "$bench")
lines=$(cat "$tmp/stdout")
b4_one=$(UMPIRE_BENCH_COUNT=b4:1 count "$bench")
b4=$(( (b4_many - b4_one) / 10 / lines ))
"$bin" eval furious_reason '1 + 1' > /dev/null
b5=$(count "$bin" eval furious_reason '1 + 1')
[ "$(cat "$tmp/stdout")" = 2 ] || { echo "benches/callgrind.sh: umpire eval furious_reason '1 + 1' did not print 2" >&2; exit 1; }
hello_count=null
if [ -x "$hello" ]; then
  hello_count=$(count "$hello")
fi

echo "B1 (one untraced manoeuvre):                   $b1 instructions"
echo "B4 (parse + check, per line of $lines):        $b4 instructions"
echo "parse+check (umpire check furious_reason):     $check instructions"
echo "B5 (umpire eval furious_reason '1 + 1'):       $b5 instructions"
echo "hello-world process:                           $hello_count instructions"
if [ -n "$out_json" ]; then
  cat > "$out_json" <<EOF
{"b1_per_manoeuvre": $b1, "b4_per_line": $b4, "b4_lines": $lines,
 "parse_check_furious_reason": $check, "b5_eval_process": $b5, "hello_process": $hello_count,
 "valgrind": "$(valgrind --version)"}
EOF
fi
