"""Breadth-first search through a small maze from S to E, giving up on paths longer than a cap."""

from collections import deque


def maze_shortest_path(maze, max_steps):
    start = goal = None
    for row, line in enumerate(maze):
        for col, cell in enumerate(line):
            if cell == "S":
                start = (row, col)
            if cell == "E":
                goal = (row, col)
    if start is None or goal is None:
        return (-1, 0)
    queue = deque([(start, 0)])
    seen = {start}
    while queue:
        (row, col), distance = queue.popleft()
        if (row, col) == goal:
            return (distance, len(seen))
        if distance >= max_steps:
            continue
        for d_row, d_col in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            next_row, next_col = row + d_row, col + d_col
            if not (0 <= next_row < len(maze) and 0 <= next_col < len(maze[next_row])):
                continue
            if maze[next_row][next_col] != "#" and (next_row, next_col) not in seen:
                seen.add((next_row, next_col))
                queue.append(((next_row, next_col), distance + 1))
    return (-1, len(seen))


# input: [["S.#", ".##", "..E"], 10]
# input: [["SE"], 5]
# input: [["S#E"], 5]
# input: [["S..", "...", "..E"], 2]
# input: [["S.#.", "#...", "..#E"], 9]
# input: [["...", ".S.", "..."], 4]
# input: [["E#.", ".#.", "..S"], 8]
# input: [["S"], 0]
