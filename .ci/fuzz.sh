#!/usr/bin/env bash
# The short fuzzing run: every target of fuzz/ under AFL++ (cargo-afl, stable Rust) for a few
# seconds from the fixtures' seeds; fails if any target found a crash (a panic, or a broken
# round-trip), printing each crashing input and its panic. See docs/fuzzing.md.
#
#   bash .ci/fuzz.sh              # 12 seconds per target
#   FUZZ_SECONDS=600 bash .ci/fuzz.sh position_id mat   # longer, on the targets named
#   bash .ci/fuzz.sh server_json  # the server's request bodies (not in the default list: it
#                                 # builds the whole HTTP stack)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds=${FUZZ_SECONDS:-12}
all=(position_id match_id reader xgid play mat sgf battlegammon)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
afl_version=0.18.2

if ! cargo afl --version >/dev/null 2>&1; then
    echo "== fuzz: installing cargo-afl $afl_version (it builds AFL++ too)"
    cargo install --locked cargo-afl --version "$afl_version"
fi

echo "== fuzz: seeds, and the properties on them"
bash seeds.sh
# The seed test without the afl feature: the binaries link only under cargo afl.
features=afl test_features=
case " ${targets[*]} " in *" server_json "*) features=afl,server test_features=server ;; esac
cargo test --release --locked -q --features "$test_features"

echo "== fuzz: build under AFL++"
cargo afl build --release --locked --features "$features"

# No terminal UI; no CPU governor or core-dump handler to configure on a CI machine.
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1

failed=()
for t in "${targets[@]}"; do
    out=out/afl/$t
    rm -rf "$out"
    mkdir -p out/afl
    echo "== fuzz: $t for ${seconds}s"
    cargo afl fuzz -V "$seconds" -i "out/seeds/$t" -o "$out" "target/release/$t" >"out/afl/$t.log" 2>&1 || {
        tail -n 30 "out/afl/$t.log"
        echo "afl-fuzz did not run $t (its log above)"
        exit 1
    }
    stats=$out/default/fuzzer_stats
    grep -E '^(execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs) ' "$stats" | tr -s ' ' | paste -sd ' '
    crashes=$(find "$out/default/crashes" -type f -name 'id:*' 2>/dev/null | sort)
    if [ -n "$crashes" ]; then
        failed+=("$t")
        while IFS= read -r c; do
            echo "-- crash of $t: $c"
            od -A d -c "$c" | head -n 20
            # The subshell keeps the shell's own "Aborted" line out of the report.
            ("target/release/$t" <"$c" 2>&1) 2>/dev/null | grep -v '^note:' | head -n 5 || true
        done <<<"$crashes"
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: crashes in ${failed[*]} (inputs under fuzz/out/afl/<target>/default/crashes)"
    exit 1
fi
echo "fuzz: no crash in ${targets[*]}"
