"""Snake on a small board: it moves by commands, grows when it eats, and may bump into rocks."""

from collections import deque


def snake_game(width, height, commands, food, rocks, wrap):
    body = deque([(0, 0)])
    heading = "R"
    score = 0
    food_index = 0
    alive = True
    deltas = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    opposite = {"U": "D", "D": "U", "L": "R", "R": "L"}
    rock_cells = {(row, col) for row, col in rocks}

    def skip_buried_food():
        nonlocal food_index
        while food_index < len(food) and tuple(food[food_index]) in body:
            food_index += 1

    def advance(direction):
        nonlocal heading, score, alive, food_index
        if len(body) > 1 and direction == opposite[heading]:
            direction = heading
        heading = direction
        d_row, d_col = deltas[direction]
        new_row, new_col = body[0][0] + d_row, body[0][1] + d_col
        if wrap:
            new_row, new_col = new_row % height, new_col % width
        elif not (0 <= new_row < height and 0 <= new_col < width):
            alive = False
            return
        if (new_row, new_col) in rock_cells:
            body.pop()
            if not body:
                alive = False
            return
        eating = food_index < len(food) and [new_row, new_col] == food[food_index]
        if not eating:
            body.pop()
        if (new_row, new_col) in body:
            alive = False
            return
        body.appendleft((new_row, new_col))
        if eating:
            score += 1
            if len(body) % 3 == 0:
                score += 2
            food_index += 1
            skip_buried_food()

    skip_buried_food()
    for command in commands:
        direction = command[:1]
        if direction not in deltas:
            continue
        repeat = int(command[1:]) if command[1:].isdigit() else 1
        for _ in range(repeat):
            advance(direction)
            if not alive:
                score -= 5
                break
            if food and food_index >= len(food):
                if len(body) > 3:
                    score += 10
                break
        if not alive or (food and food_index >= len(food)):
            break
    return (score, [list(cell) for cell in body])


# input: [4, 4, ["R2", "D2", "L", "U"], [[0, 2], [2, 2], [3, 0]], [], false]
# input: [3, 3, [], [[1, 1]], [], false]
# input: [3, 3, ["R3"], [], [], false]
# input: [3, 3, ["L2", "U", "D3"], [[0, 2], [2, 1]], [], true]
# input: [5, 4, ["R", "R", "D", "D", "L", "L", "U"], [[0, 1], [0, 2], [1, 2], [2, 2]], [], false]
# input: [4, 4, ["D3", "R", "U5"], [[1, 0], [3, 1]], [[0, 1], [2, 1]], false]
# input: [4, 2, ["R", "X", "R2", "L", "D", "L3"], [[0, 1], [0, 2], [0, 3], [1, 3]], [[1, 0]], false]
# input: [3, 3, ["R", "R", "D", "L", "U"], [[0, 1], [0, 2], [1, 2], [1, 1]], [], false]
