#!/usr/bin/env bash
# The wheel a user without Rust installs: built with maturin as README says, tagged manylinux (a
# plain linux tag would mean a library or glibc symbol outside the policy, and PyPI refuses it),
# then installed into a fresh virtual environment whose PATH has no cargo or rustc, where the main
# job must run. Run from .ci/run after the package is installed, so cargo reuses its release build.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The build backend's maturin; --out keeps older wheels in target/wheels out of the way.
python -m pip install -q "maturin>=1.9,<2"
maturin build --release --out "$tmp/wheels"
wheels=("$tmp"/wheels/*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
    echo "expected one wheel, got: ${wheels[*]}" >&2
    exit 1
fi
wheel=${wheels[0]}
name=$(basename "$wheel")
echo "built $name"
case "$name" in
    gammon-*-cp310-abi3-manylinux*.whl) ;;
    *)
        echo "$name: not an abi3 manylinux wheel" >&2
        exit 1
        ;;
esac

python3 -m venv "$tmp/venv"
# What a user without Rust has: the system's tools and the new environment, no ~/.cargo/bin.
bare_path="$tmp/venv/bin:/usr/bin:/bin"
for tool in cargo rustc; do
    if PATH=$bare_path command -v "$tool" >/dev/null; then
        echo "$tool is on $bare_path; the check would prove nothing" >&2
        exit 1
    fi
done

# Outside the checkout, so neither python/ nor a stray extension module can stand in for the wheel.
cd "$tmp"
env -u VIRTUAL_ENV PATH="$bare_path" bash -euo pipefail -c '
    python -m pip install -q --only-binary=:all: "$1"
    python -c "import gammon._core, sys; sys.exit(\"site-packages\" not in gammon._core.__file__)"
    gammon rollout --trials 72 --json >rollout.json
    gammon rollout --trials 72
' bash "$wheel"
"$tmp/venv/bin/python" - "$tmp/rollout.json" <<'EOF'
import json
import sys

r = json.load(open(sys.argv[1]))
assert r["trials"] == 72, r
assert -3.0 <= r["equity"] <= 3.0 and 0.0 < r["win"] < 1.0, r
print(f"rollout from the wheel: equity {r['equity']:+.4f} over {r['trials']} trials")
EOF
