#!/usr/bin/env bash
# Regenerates the golden checksum files under Tests/bench/ (committed; run by hand, not by `make test`).
#
#   scripts/make-golden.sh [KIWI_OUT_DIR]
#
# Tests/bench/kiwi/NAME.u  the `u` lines of kiwi 1.5.1 (SHARED/bench/anchors/kiwi/run.sh) on workloads/NAME.lin.
#     With KIWI_OUT_DIR, they are taken from NAME.out files already there (kiwi's stdout, one per workload);
#     otherwise kiwi is run on every workload (KIWI_TIMEOUT seconds each, default 900: the 10k files take minutes).
#     A kiwi run that failed or timed out gets no file. enaml-orig is skipped: its optimum is not unique.
# Tests/bench/expect/drag-N.u  for drag files kiwi could not finish: gen_drag.py --expect (the closed-form
#     optimum; DRAG.md checks it equals kiwi's output where kiwi finishes). Where both exist they must agree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SHARED=${SHARED:-../shared}
bench=$SHARED/bench
outdir=${1:-}
timeout=${KIWI_TIMEOUT:-900}
mkdir -p Tests/bench/kiwi Tests/bench/expect
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for lin in "$bench"/workloads/*.lin; do
    name=$(basename "$lin" .lin)
    [ "$name" = enaml-orig ] && { echo "skip $name (optimum not unique)"; continue; }
    if [ -n "$outdir" ]; then
        out=$outdir/$name.out
        if [ ! -s "$out" ] || [ -s "$outdir/$name.err" ]; then echo "skip $name (no kiwi output, or errors)"; continue; fi
    else
        out=$tmp/$name.out
        if ! timeout "$timeout" "$bench/anchors/kiwi/run.sh" "$lin" > "$out" 2> "$tmp/$name.err"; then
            echo "skip $name (kiwi failed or timed out)"; continue
        fi
    fi
    # A complete output ends with a `total` line and has one `u` line per `u` in the file.
    want=$(grep -c '^u' "$lin" || true)
    got=$(grep -c '^u ' "$out" || true)
    if ! grep -q '^total ' "$out" || [ "$got" != "$want" ]; then
        echo "skip $name (kiwi output incomplete: $got of $want checkpoints)"; continue
    fi
    grep '^u ' "$out" > "Tests/bench/kiwi/$name.u"
    echo "kiwi $name: $got checkpoints"
done

for lin in "$bench"/workloads/drag-*.lin; do
    name=$(basename "$lin" .lin)
    n=${name#drag-}
    python3 "$bench/gen_drag.py" --size "$n" --expect > "$tmp/$name.expect"
    if [ -f "Tests/bench/kiwi/$name.u" ]; then
        if cmp -s "$tmp/$name.expect" "Tests/bench/kiwi/$name.u"; then
            echo "expect $name: kiwi agrees with the closed form"
            rm -f "Tests/bench/expect/$name.u"
        else
            echo "WARNING: kiwi's $name differs from gen_drag.py --expect" >&2
        fi
    else
        cp "$tmp/$name.expect" "Tests/bench/expect/$name.u"
        echo "expect $name: closed form (no kiwi output)"
    fi
done
