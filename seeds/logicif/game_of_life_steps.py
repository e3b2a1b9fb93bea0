"""Conway's Game of Life on a tiny board, optionally wrapping around the edges, for a few generations."""


def _alive(board, row, col, wrap):
    height, width = len(board), len(board[0])
    if wrap:
        return board[row % height][col % width]
    if 0 <= row < height and 0 <= col < width:
        return board[row][col]
    return 0


def _neighbours(board, row, col, wrap):
    above = _alive(board, row - 1, col - 1, wrap) + _alive(board, row - 1, col, wrap) + _alive(board, row - 1, col + 1, wrap)
    level = _alive(board, row, col - 1, wrap) + _alive(board, row, col + 1, wrap)
    below = _alive(board, row + 1, col - 1, wrap) + _alive(board, row + 1, col, wrap) + _alive(board, row + 1, col + 1, wrap)
    return above + level + below


def game_of_life_steps(board, generations, wrap):
    if not board or not board[0]:
        return []
    height, width = len(board), len(board[0])
    current = [list(line) for line in board]
    for _ in range(generations):
        following = [[0] * width for _ in range(height)]
        for cell in range(height * width):
            row, col = divmod(cell, width)
            count = _neighbours(current, row, col, wrap)
            if current[row][col] and count in (2, 3):
                following[row][col] = 1
            if not current[row][col] and count == 3:
                following[row][col] = 1
        if following == current:
            break
        current = following
    return current


# input: [[[0, 1, 0], [0, 1, 0], [0, 1, 0]], 2, false]
# input: [[[1, 1], [1, 1]], 3, false]
# input: [[], 3, false]
# input: [[[1, 0, 0], [0, 1, 0], [0, 0, 1]], 3, false]
# input: [[[0, 1, 0, 0], [0, 0, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]], 2, true]
# input: [[[1]], 2, true]
# input: [[[1, 0, 1], [0, 1, 0]], 0, false]
# input: [[[1, 1, 0], [1, 0, 0], [0, 0, 0]], 4, false]
