"""A robot on a small grid obeys turn and move commands; walls and the border stop a move short,
and each coin cell pays out on the first visit."""


def robot_grid_walk(grid, commands):
    headings = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    turns = {"L": 3, "R": 1, "U": 2}
    robot_row, robot_col = 0, 0
    for row_index, line in enumerate(grid):
        if "R" in line:
            robot_row, robot_col = row_index, line.index("R")
    facing = 0
    bumps = 0
    coins = 0
    visited = {(robot_row, robot_col)}
    for command in commands:
        if command in turns:
            facing = (facing + turns[command]) % 4
            continue
        if command[:1] not in ("F", "B") or not command[1:].isdigit():
            continue
        sign = 1 if command[0] == "F" else -1
        d_row, d_col = headings[facing]
        for _ in range(int(command[1:])):
            next_row = robot_row + sign * d_row
            next_col = robot_col + sign * d_col
            inside = 0 <= next_row < len(grid) and 0 <= next_col < len(grid[next_row])
            if not inside or grid[next_row][next_col] == "#":
                bumps += 1
                break
            robot_row, robot_col = next_row, next_col
            if grid[robot_row][robot_col] == "*" and (robot_row, robot_col) not in visited:
                coins += 1
            visited.add((robot_row, robot_col))
    return [robot_row, robot_col, bumps, len(visited), coins]


# input: [["R.*#", ".#..", "*..."], ["R", "F5", "R", "F2", "L", "B1"]]
# input: [["...", ".R.", "..."], []]
# input: [["R"], ["F3", "L", "F1"]]
# input: [["#R#", "...", "#.#"], ["R", "R", "F3", "L", "F1", "B2"]]
# input: [["R...", "##.#", "...."], ["R", "F9", "R", "F2", "R", "F4", "X", "F0"]]
# input: [["*...", "..R.", ".#..", "*..*"], ["L", "U", "F1", "R", "F2", "B3", "R", "F2", "B2"]]
# input: [["R."], ["Fx", "F", "R", "F1", "U", "B1"]]
# input: [[".#.", "#R#", ".#."], ["F1", "R", "F1", "R", "F1", "R", "F1"]]
