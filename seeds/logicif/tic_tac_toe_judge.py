"""Referee a tic-tac-toe game from a list of moves, handing out strikes for illegal moves."""


def _inside(row, col):
    return 0 <= row < 3 and 0 <= col < 3


def _check_move(board, move):
    if not isinstance(move, list) or len(move) != 2:
        return "malformed"
    row, col = move
    if not isinstance(row, int) or not isinstance(col, int):
        return "malformed"
    if not _inside(row, col):
        return "outside"
    if board[row][col] != ".":
        return "taken"
    return "ok"


def _winning_line(board, row, col, mark):
    if board[row][0] == board[row][1] == board[row][2] == mark:
        return "row"
    if board[0][col] == board[1][col] == board[2][col] == mark:
        return "column"
    if row == col and board[0][0] == board[1][1] == board[2][2] == mark:
        return "diagonal"
    if row + col == 2 and board[0][2] == board[1][1] == board[2][0] == mark:
        return "anti-diagonal"
    return ""


def tic_tac_toe_judge(moves, strike_limit):
    board = [["."] * 3 for _ in range(3)]
    strikes = {"X": 0, "O": 0}
    player = "X"
    placed = 0
    for number, move in enumerate(moves, start=1):
        rival = "O" if player == "X" else "X"
        verdict = _check_move(board, move)
        if verdict != "ok":
            strikes[player] += 2 if verdict == "malformed" else 1
            if strike_limit > 0:
                if strikes[player] >= strike_limit:
                    if strikes[rival] >= strike_limit - 1:
                        return f"void: both players near the strike limit at move {number}"
                    return f"{rival} wins: {player} forfeits at move {number} ({verdict})"
            if verdict != "taken":
                player = rival
            continue
        row, col = move
        board[row][col] = player
        placed += 1
        line = _winning_line(board, row, col, player)
        if line:
            return f"{player} wins by {line} at move {number}"
        if placed == 9:
            return f"draw at move {number}"
        player = rival
    if placed == 0:
        return "not started"
    return f"unfinished: {player} to move with {9 - placed} empty squares, strikes {strikes['X']}-{strikes['O']}"


# input: [[[1, 1], [0, 0], [2, 2], [0, 2], [0, 1], [2, 1], [1, 0], [1, 2], [2, 0]], 3]
# input: [[[0, 0], [1, 1], [0, 1], [2, 2], [0, 2]], 2]
# input: [[], 2]
# input: [[[1, 1], [1, 1], [1, 1], [0, 0]], 2]
# input: [[[3, 0], [1, 1], [0, 0], [5]], 3]
# input: [[[0, 2], [0, 0], [1, 1], [1, 0], [2, 0]], 0]
# input: [[[1, 1], [1, 1], [1, 1], [0, 0], [0, 0], [0, 0]], 2]
# input: [[[0, 0], [4, 4], [0, 1], [0, 0], [2, 2]], 5]
# input: [[["a", 1], [2, 2], [0, 1]], 4]
# input: [[[5, 5], [1, 1], [0, 0], [1, 1], [1, 1]], 2]
