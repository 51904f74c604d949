#!/usr/bin/env bash
# Runs umpire's benchmark peers end to end and writes peers/results.json.
#
#   bash peers/run.sh            # from any directory; about 3-4 minutes on 2 cores once built
#   PEERS_QUICK=1 bash peers/run.sh   # a smoke run: short measurements, rough numbers
#
# It installs what it needs (a venv in peers/python/.venv with icepool 2.1.3 from PyPI; the Rust
# crate's dependencies from crates.io), builds peers/rust in release (the hello binary that the
# process bench spawns), runs its criterion benches and the Python script, and gathers one
# number per measurement into peers/results.json: keys ending in `_ns` are nanoseconds per
# iteration, `_s` seconds per iteration, `_lines` a count. Criterion figures are the median
# point estimate of target/criterion/<bench id>/new/estimates.json; Python figures are the
# median over timeit repeats. Safe to run again: it starts from a clean criterion directory
# each time and reuses the venv and the build.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUST="$HERE/rust"
PY="$HERE/python"
VENV="$PY/.venv"
# The peer crate builds into its own target/, whatever the caller's environment says.
export CARGO_TARGET_DIR="$RUST/target"
CRIT="$CARGO_TARGET_DIR/criterion"

say() { printf '==> %s\n' "$*" >&2; }

# --- Python: a venv with icepool --------------------------------------------------------
PYTHON="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import icepool, sys; sys.exit(icepool.__version__ != "2.1.3")' 2>/dev/null; then
    say "installing icepool 2.1.3 into $VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check icepool==2.1.3
fi

# --- Rust: build (the hello binary must exist before the process bench) ----------------
say "cargo build --release (peers/rust)"
cargo build --release --manifest-path "$RUST/Cargo.toml"

# --- Rust benches -------------------------------------------------------------------------
rm -rf "$CRIT" "$CARGO_TARGET_DIR/peers"
crit_args=(--noplot)
if [ "${PEERS_QUICK:-}" = 1 ]; then
    crit_args+=(--warm-up-time 0.2 --measurement-time 0.5)
fi
say "cargo bench (peers/rust)"
cargo bench --manifest-path "$RUST/Cargo.toml" --bench peers -- "${crit_args[@]}"

# --- Python peers ---------------------------------------------------------------------------
py_args=()
if [ "${PEERS_QUICK:-}" = 1 ]; then
    py_args+=(--quick)
fi
say "python bench.py"
PY_JSON="$CARGO_TARGET_DIR/peers/python.json"
mkdir -p "$(dirname "$PY_JSON")"
"$VENV/bin/python" "$PY/bench.py" "${py_args[@]+"${py_args[@]}"}" > "$PY_JSON"

# --- Gather -------------------------------------------------------------------------------
say "writing $HERE/results.json"
"$VENV/bin/python" - "$CRIT" "$CARGO_TARGET_DIR/peers" "$PY_JSON" "$HERE/results.json" <<'EOF'
import json, sys
from pathlib import Path

crit, meta, py_json, out_path = map(Path, sys.argv[1:])

def estimate_ns(bench_id: str) -> float:
    # criterion keeps the id as the directory name (spaces and '+' included)
    f = crit / bench_id / "new" / "estimates.json"
    return json.loads(f.read_text())["median"]["point_estimate"]

out = {}
for bench_id in ["native manoeuvre", "native exact manoeuvre", "rhai manoeuvre",
                 "rhai compile 1000 lines", "hello-world process"]:
    out[f"{bench_id}_ns"] = estimate_ns(bench_id)
for bench_id in ["native 1M manoeuvres", "native 1M 2d6+drm",
                 "rhai 1M manoeuvres", "rhai 1M 2d6+drm"]:
    out[f"{bench_id}_s"] = estimate_ns(bench_id) / 1e9
lines = int((meta / "rhai_compile_lines.txt").read_text())
out["rhai compile script_lines"] = lines
out["rhai compile per line_ns"] = out["rhai compile 1000 lines_ns"] / lines
out.update(json.loads(py_json.read_text()))

out_path.write_text(json.dumps(out, indent=2) + "\n")

def show(v: float, key: str) -> str:
    if key.endswith("_lines"):
        return f"{v}"
    ns = v * 1e9 if key.endswith("_s") else v
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"

width = max(map(len, out))
for k, v in out.items():
    print(f"{k:<{width}}  {show(v, k)}")
EOF
