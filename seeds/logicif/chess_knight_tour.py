"""How many new squares a chess knight reaches after each move on a small rectangular board."""


def chess_knight_tour(rows, cols, start, max_moves):
    jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
    origin = (start[0], start[1])
    if not (0 <= origin[0] < rows and 0 <= origin[1] < cols):
        return []
    seen = {origin}
    frontier = [origin]
    counts = [1]
    for _ in range(max_moves):
        landing = [(row + d_row, col + d_col) for row, col in frontier for d_row, d_col in jumps]
        reached = sorted({square for square in landing if 0 <= square[0] < rows and 0 <= square[1] < cols} - seen)
        if not reached:
            break
        seen.update(reached)
        frontier = reached
        counts.append(len(reached))
    return counts


# input: [3, 3, [0, 0], 3]
# input: [3, 3, [1, 1], 4]
# input: [4, 4, [0, 0], 2]
# input: [1, 1, [0, 0], 5]
# input: [2, 3, [0, 0], 3]
# input: [5, 5, [2, 2], 2]
# input: [4, 5, [3, 4], 0]
# input: [3, 4, [5, 0], 2]
