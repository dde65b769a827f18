"""Board utilities shared by the oracle scripts (no gnubg import here).

Board layout: ``[opp, me]``, two lists of 25 checker counts.  Index ``i``
(0..23) is the owner's own point ``i + 1`` and index 24 is the owner's bar;
``me`` is the player on roll (gnubg's ``anBoard[1]``).
"""

import base64

# GNU Backgammon's position classes, by the number ``gnubg.classifypos`` returns (its evaluation
# code's enum), for the scripts run inside gnubg that sort positions by them.
GNUBG_CLASSES = {
    4: "bearoff2",
    5: "bearoff_ts",
    6: "bearoff1",
    7: "bearoff_os",
    8: "race",
    9: "crashed",
    10: "contact",
}

# ---------------------------------------------------------------------------
# Our own Position ID codec (docs/formats.md section 1.1), used to cross-check gnubg.
# ---------------------------------------------------------------------------


def encode_id(board) -> str:
    """Position ID of ``board`` = [first-encoded player, second-encoded player]."""
    bits = []
    for side in board:
        for n in side:
            bits.extend([1] * n)
            bits.append(0)
    if len(bits) > 80:
        raise ValueError("too many checkers")
    bits.extend([0] * (80 - len(bits)))
    key = bytearray(10)
    for k, bit in enumerate(bits):
        if bit:
            key[k // 8] |= 1 << (k % 8)
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def decode_id(pid: str):
    """Inverse of :func:`encode_id`; returns [[25 ints], [25 ints]]."""
    key = base64.b64decode(pid + "==")
    if len(key) != 10:
        raise ValueError("bad position id %r" % pid)
    board = [[0] * 25, [0] * 25]
    side = slot = 0
    for k in range(80):
        if side == 2:
            break
        if key[k // 8] >> (k % 8) & 1:
            board[side][slot] += 1
        else:
            slot += 1
            if slot == 25:
                side, slot = side + 1, 0
    return board


def key_to_board(key: str):
    """gnubg 20-character position key -> board (checked against gnubg)."""
    raw = bytes((ord(key[2 * i]) - 65) << 4 | (ord(key[2 * i + 1]) - 65) for i in range(10))
    return decode_id(base64.b64encode(raw).decode("ascii")[:14])


# ---------------------------------------------------------------------------
# Small board utilities (board = [opp, me], owner's own numbering)
# ---------------------------------------------------------------------------


def pips(side) -> int:
    return sum((i + 1) * n for i, n in enumerate(side))


def on_board(side) -> int:
    return sum(side)


def all_home(side) -> bool:
    return sum(side[6:]) == 0


def has_contact(board) -> bool:
    """True if some mover checker still has to pass some opponent checker."""
    opp, me = board
    # mover's rearmost checker, in mover's numbering (bar = 25)
    me_back = max((i + 1 for i, n in enumerate(me) if n), default=0)
    # opponent's rearmost checker, converted to mover's numbering (opp bar = 0)
    opp_back = max((i + 1 for i, n in enumerate(opp) if n), default=0)
    if opp_back == 0:
        return False
    opp_back_in_mover = 25 - opp_back  # opp bar (25) -> 0
    return me_back > opp_back_in_mover


def board_tuple(board):
    return (tuple(board[0]), tuple(board[1]))


def swap(board):
    return [list(board[1]), list(board[0])]


# ---------------------------------------------------------------------------
# Independent legal-play generator (from the rules, docs/formats.md section 7),
# used only to cross-check gnubg's answers.
# ---------------------------------------------------------------------------


def _single_steps(pos, d):
    opp, me = pos
    out = []
    if me[24]:
        dest = 24 - d  # mover's point 25-d
        occ = opp[23 - dest]
        if occ < 2:
            nme = list(me)
            nopp = list(opp)
            nme[24] -= 1
            nme[dest] += 1
            if occ == 1:
                nopp[23 - dest] = 0
                nopp[24] += 1
            out.append((tuple(nopp), tuple(nme)))
        return out
    home = sum(me[6:]) == 0
    for src in range(24):
        if not me[src]:
            continue
        dest = src - d
        if dest >= 0:
            occ = opp[23 - dest]
            if occ >= 2:
                continue
            nme = list(me)
            nopp = list(opp)
            nme[src] -= 1
            nme[dest] += 1
            if occ == 1:
                nopp[23 - dest] = 0
                nopp[24] += 1
            out.append((tuple(nopp), tuple(nme)))
        elif home and (dest == -1 or sum(me[src + 1 : 6]) == 0):
            nme = list(me)
            nme[src] -= 1
            out.append((tuple(opp), tuple(nme)))
    return out


def reference_results(board, d1, d2):
    """Set of resulting boards (mover's view) and the max number of dice used."""
    start = board_tuple(board)
    if d1 == d2:
        level, used = {start}, 0
        for _ in range(4):
            nxt = {q for p in level for q in _single_steps(p, d1)}
            if not nxt:
                break
            level, used = nxt, used + 1
        return level, used
    both = set()
    first = {}
    for a, b in ((d1, d2), (d2, d1)):
        first[a] = set(_single_steps(start, a))
        for p in first[a]:
            both.update(_single_steps(p, b))
    if both:
        return both, 2
    hi, lo = max(d1, d2), min(d1, d2)
    if first[hi]:
        return first[hi], 1
    if first[lo]:
        return first[lo], 1
    return {start}, 0
