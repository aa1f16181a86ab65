"""The rules the scripts share: the squares a move flips. Squares are (row, column), a1 = (0, 0)."""

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(me, opp, r, c):
    """The discs of `opp` that `me` flips by playing (r, c) (empty: not a legal move)."""
    out = []
    for dr, dc in DIRS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) in opp:
            line.append((rr, cc))
            rr += dr
            cc += dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) in me:
            out += line
    return out
