"""Drop small pieces straight down onto a narrow board, clear full rows, and keep score."""


def _cells_for(shape, rotated):
    base = {
        "I": [(0, 0), (1, 0), (2, 0)],
        "O": [(0, 0), (1, 0), (0, 1), (1, 1)],
        "L": [(0, 0), (1, 0), (0, 1)],
        "J": [(0, 0), (1, 0), (1, 1)],
        ".": [(0, 0)],
    }.get(shape, [])
    if rotated:
        return [(dy, dx) for dx, dy in base]
    return base


def _landing_row(heights, cells, column):
    landing = 0
    for dx, dy in cells:
        landing = max(landing, heights[column + dx] - dy)
    return landing


def _row_full(rows, y):
    return y < len(rows) and all(rows[y])


def _clear_rows(rows, heights, touched):
    cleared = 0
    for y in sorted(touched, reverse=True):
        if _row_full(rows, y):
            del rows[y]
            cleared += 1
    if cleared:
        for x in range(len(heights)):
            heights[x] -= cleared
            while heights[x] > 0 and not rows[heights[x] - 1][x]:
                heights[x] -= 1
    return cleared


def tetris_lines(width, drops, ceiling):
    rows = []
    heights = [0] * width
    score = 0
    combo = 0
    topped_out = False
    for shape, column, rotated in drops:
        cells = _cells_for(shape, rotated)
        piece_width = 1 + max((dx for dx, _ in cells), default=-1)
        if not cells or piece_width > width:
            score -= 1
            continue
        column = min(max(column, 0), width - piece_width)
        base = _landing_row(heights, cells, column)
        touched = set()
        for dx, dy in cells:
            y = base + dy
            if y >= ceiling:
                topped_out = True
            else:
                while len(rows) <= y:
                    rows.append([0] * width)
                rows[y][column + dx] = 1
                heights[column + dx] = max(heights[column + dx], y + 1)
                touched.add(y)
        cleared = _clear_rows(rows, heights, touched)
        if cleared:
            combo += 1
            score += [0, 10, 30, 60][min(cleared, 3)] + 5 * (combo - 1)
            if not rows:
                score += 50
        else:
            combo = 0
        if topped_out:
            score -= 20
            break
    return (score, heights)


# input: [3, [["I", 0, false], ["I", 0, false]], 6]
# input: [4, [], 5]
# input: [3, [["O", 0, false], [".", 2, false], [".", 2, false]], 6]
# input: [4, [["I", 0, true], ["I", 1, true], ["O", 2, false], ["L", 0, false]], 5]
# input: [2, [["I", 0, false], ["O", 5, false], ["Z", 0, false], ["J", 0, true]], 6]
# input: [3, [["I", 0, true], ["I", 0, true], ["I", 1, false]], 4]
# input: [3, [["L", 0, false], ["J", 1, true], [".", 2, false], ["O", 0, false], ["I", 0, false]], 8]
# input: [4, [["O", 0, false], ["O", 2, false], ["O", 1, false], ["I", 0, false], [".", 3, false], ["L", 2, true]], 6]
