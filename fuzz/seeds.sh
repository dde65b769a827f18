#!/usr/bin/env bash
# Writes the seed corpus, one directory per target under the directory given (relative to
# fuzz/; default out/seeds, that is fuzz/out/seeds), from the repository's fixtures: Position and
# Match IDs and XGIDs of the game records, the legal-plays table's positions, the plays of the
# records, the .mat and .sgf files.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-out/seeds}
fixtures=../tests/fixtures
rm -rf "$out"
for t in position_id match_id reader xgid play mat sgf battlegammon server_json; do mkdir -p "$out/$t"; done

# One file per line of standard input, named <prefix><n>, the line without its newline.
lines_to_files() {
    local dir=$1 prefix=$2 n=0 line
    while IFS= read -r line; do
        printf '%s' "$line" >"$dir/$prefix$n"
        n=$((n + 1))
    done
}

# Every 40th position of the legal-plays table, and the positions of the game records.
{
    tail -n +2 "$fixtures/legal_plays.csv" | cut -d, -f1 | sort -u | awk 'NR % 40 == 1'
    tail -n +2 "$fixtures/games/gnubg_games.csv" | cut -d, -f5 | sort -u | awk 'NR <= 40'
} | lines_to_files "$out/position_id" p

tail -n +2 "$fixtures/games/gnubg_games.csv" | cut -d, -f6 | sort -u | awk 'NR <= 60' | lines_to_files "$out/match_id" m

tail -n +2 -q "$fixtures/games/gnubg_xgid_import.csv" "$fixtures/games/ours_xgids.csv" | cut -d, -f1 | sort -u |
    awk 'NR <= 60' | lines_to_files "$out/xgid" x

# The reader takes all of them, PositionID:MatchID pairs and the named starts too.
{
    printf '%s\n' opening initial start " Initial " "4HPwATDgc/ABMA"
    tail -n +2 -q "$fixtures/games/gnubg_xgid_import.csv" "$fixtures/games/ours_xgids.csv" | cut -d, -f1,2 | tr ',' '\n' |
        sort -u | awk 'NR <= 60'
    tail -n +2 "$fixtures/games/gnubg_games.csv" | awk -F, '{print $5 ":" $6}' | sort -u | awk 'NR <= 30'
} | lines_to_files "$out/reader" r

# A play: one byte choosing the position and roll, then the text. The texts are the records'
# plays, each given to a few of the positions and rolls.
n=0
while IFS= read -r play; do
    for pick in $((n % 105)) $(((n * 7 + 3) % 105)); do
        { printf "\\$(printf '%03o' "$pick")"; printf '%s' "$play"; } >"$out/play/t$n-$pick"
    done
    n=$((n + 1))
done < <(
    printf '%s\n' "8/5 6/5" "24/18 13/11*" "bar/22" "6/off(2)" "8/5(2) 6/3(2)" "13/7*/5" "24/23 24/22" "25/20 off"
    tail -n +2 "$fixtures/games/gnubg_games.csv" | cut -d, -f4 | grep '^move ' | cut -c6- | sort -u | awk 'NR <= 40'
)

cp "$fixtures"/mat/*.mat "$out/mat/"
# The first game of each file alone, a smaller seed.
for f in "$fixtures"/mat/*.mat; do
    awk '/Game 2/ {exit} {print}' "$f" >"$out/mat/first-game-$(basename "$f")"
done

# GNU Backgammon's .sgf exports and ours.
cp "$fixtures"/analysis/*.sgf "$fixtures"/sgf-gnubg/*.sgf "$out/sgf/"

printf '%s\n' initial "b:wwwww////w///ww/ww///////b///bb/bb////bbbbb" "w:bwwww////w///ww/ww///////b///bb/bb////bbbb" \
    "b:ww///////ww/ww///////b///bb/bb////bbbbbwwww" "b:" | lines_to_files "$out/battlegammon" b

# Server request bodies: one byte choosing the request type (0 plays, 1 evaluate, 2 cube,
# 3 rollout, 4 battlegammon), then the JSON.
server_seed() {
    { printf "\\$(printf '%03o' "$1")"; printf '%s' "$2"; } >"$out/server_json/s$1-$3"
}
server_seed 0 '{"position": "4HPwATDgc/ABMA", "dice": [3, 1]}' a
server_seed 0 '{"position": "4HPwATDgc/ABMA:cAkgAAAAAAAE", "ply": 0}' b
server_seed 0 '{"position": [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0], "dice": "6-5", "match": {"length": 5, "score": [1, 2]}}' c
server_seed 1 '{"position": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:6", "ply": 0}' a
server_seed 1 '{"position": "initial", "cube": {"value": 2, "owner": "us"}, "money": {"jacoby": true}}' b
server_seed 2 '{"position": "4HPwATDgc/ABMA", "ply": 1}' a
server_seed 3 '{"position": "opening", "trials": 36, "seed": 7, "policy": "0ply", "truncate": 10}' a
server_seed 4 '{"position": "b:wwwww////w///ww/ww///////b///bb/bb////bbbbb", "dice": [3, 1], "rules": {"maximize_dice": 1}}' a
server_seed 4 '{"position": "initial", "dice": "21"}' b

echo "seeds in $out: $(find "$out" -type f | wc -l) files"
