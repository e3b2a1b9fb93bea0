"""Players take turns moving along a track with ladders and snakes, using a fixed list of rolls.

Overshooting the last square bounces back; rolling a six earns the same player another roll.
"""


def dice_board_game(board_size, jumps, rolls, players):
    links = {start: end for start, end in jumps}
    positions = [0] * players
    player = 0
    for roll in rolls:
        target = positions[player] + roll
        if target > board_size:
            target = 2 * board_size - target
        target = links.get(target, target)
        positions[player] = target
        if target == board_size:
            return (player, positions)
        if roll != 6:
            player = (player + 1) % players
    return (-1, positions)


# input: [10, [[3, 7], [9, 2]], [3, 4, 4, 2, 3], 2]
# input: [10, [], [], 2]
# input: [5, [[2, 5]], [2], 1]
# input: [12, [[4, 10], [11, 1], [6, 2]], [4, 6, 2, 5, 5, 1, 3, 6], 3]
# input: [8, [[5, 1]], [6, 6, 4, 3, 2, 1], 2]
# input: [15, [[3, 12], [13, 4], [7, 14]], [3, 3, 3, 4, 1, 1], 2]
# input: [6, [[1, 4]], [1, 1, 1, 2, 2, 2, 1, 1], 4]
# input: [20, [], [6, 6, 6, 6, 6, 6, 2, 2], 1]
