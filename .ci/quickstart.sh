#!/usr/bin/env bash
# README's quick start, run as a new user would: the commands are read from its first code block,
# so the check cannot drift from what README says. CI has no remote, so the clone is of this
# checkout's HEAD; the rest runs word for word in the clone, with no state from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$PWD" "$tmp/gammon"
cd "$tmp/gammon"

# The first fenced block after "## Quick start"; its clone line is the one step done above instead.
awk '
    /^## / { in_section = ($0 == "## Quick start") }
    in_section && /^```/ { if (in_block) exit; in_block = 1; next }
    in_block { print }
' README.md >"$tmp/block.sh"
if ! grep -q '^git clone ' "$tmp/block.sh"; then
    echo "README's quick start no longer starts with git clone; update $0" >&2
    exit 1
fi
grep -v "^git clone " "$tmp/block.sh" >"$tmp/commands.sh" || { echo "nothing to run after the clone" >&2; exit 1; }
echo "running README's quick start:"
sed 's/^/    /' "$tmp/commands.sh"

# A user's shell has no virtual environment active: take away the one .ci/run activated.
path=$PATH
if [ -n "${VIRTUAL_ENV:-}" ]; then
    path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$VIRTUAL_ENV/bin" | paste -sd:)
fi
start=$(date +%s)
env -u VIRTUAL_ENV -u CARGO_TARGET_DIR PATH="$path" bash -eo pipefail "$tmp/commands.sh" \
    2>&1 | tee "$tmp/output.txt"
echo "quick start took $(($(date +%s) - start)) s"

# The rollout's table: an equity column and a games count.
if ! grep -q 'equity' "$tmp/output.txt" || ! grep -Eq '[0-9]+ trials' "$tmp/output.txt"; then
    echo "the quick start did not print a rollout result" >&2
    exit 1
fi
