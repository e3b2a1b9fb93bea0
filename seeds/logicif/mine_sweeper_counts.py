"""Minesweeper: open or flag cells in order; opened cells show how many mines touch them."""


def _is_adjacent(mine, row, col):
    return max(abs(mine[0] - row), abs(mine[1] - col)) == 1


def _count_around(mines, row, col):
    total = 0
    for mine in mines:
        if _is_adjacent(mine, row, col):
            total += 1
    return total


def mine_sweeper_counts(rows, cols, mines, actions):
    mine_cells = {(row, col) for row, col in mines}
    shown = {}
    flags = set()
    exploded = False
    for kind, row, col in actions:
        cell = (row, col)
        if not (0 <= row < rows and 0 <= col < cols) or cell in shown:
            continue
        if kind == "flag":
            if cell in flags:
                flags.discard(cell)
            else:
                flags.add(cell)
            continue
        if cell in flags:
            continue
        if cell in mine_cells:
            shown[cell] = "*"
            exploded = True
            break
        shown[cell] = str(_count_around(mines, row, col))
    board = []
    for row in range(rows):
        board.append("".join(shown.get((row, col), "F" if (row, col) in flags else "#") for col in range(cols)))
    if not exploded and len(shown) == rows * cols - len(mine_cells):
        board.append("cleared")
    return board


# input: [3, 3, [[1, 1]], [["open", 0, 0], ["open", 2, 2], ["flag", 1, 1]]]
# input: [2, 2, [], []]
# input: [2, 2, [[0, 0]], [["open", 1, 1], ["open", 0, 1], ["open", 1, 0]]]
# input: [3, 4, [[0, 3], [2, 0]], [["open", 1, 1], ["open", 5, 5], ["open", 1, 1], ["open", 0, 3], ["open", 2, 2]]]
# input: [2, 3, [[0, 1], [1, 1]], [["flag", 0, 0], ["open", 0, 0], ["flag", 0, 0], ["open", 0, 0], ["open", 1, 2]]]
# input: [1, 1, [], [["open", 0, 0]]]
# input: [4, 4, [[1, 1], [1, 2], [2, 1]], [["open", 2, 2], ["open", 0, 0], ["flag", 3, 3], ["open", 3, 3], ["open", 1, 1], ["open", 0, 1]]]
# input: [3, 3, [[0, 0], [2, 2]], [["flag", 0, 0], ["flag", 2, 2], ["open", 0, 1], ["open", 0, 2], ["open", 1, 0], ["open", 1, 1], ["open", 1, 2], ["open", 2, 0], ["open", 2, 1]]]
