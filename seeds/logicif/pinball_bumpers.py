"""A ball rolls along a 1-D track of bumpers and drains; does it leave through the right end?

Flippers at the left end can send it back a limited number of times.
"""


def pinball_bumpers(track, start, energy, flippers):
    bumpers = list(track)
    position = start
    direction = 1
    score = 0

    def bounce(cell):
        nonlocal direction, score
        direction = -direction
        score += bumpers[cell]
        if bumpers[cell] < 5:
            bumpers[cell] -= 1

    iter = 0
    while energy > 0 and iter < 36:
        iter += 1
        position += direction
        energy -= 1
        if position < 0:
            if flippers > 0:
                flippers -= 1
                position, direction = 0, 1
                continue
            break
        if position >= len(bumpers):
            break
        strength = bumpers[position]
        if strength > 0:
            bounce(position)
            if strength >= 5:
                energy += 1
        if strength < 0:
            energy += strength
            if energy <= 0 and score >= 2:
                energy, score = 1, score - 2
    return position >= len(bumpers)


# input: [[0, 0, 0], 0, 5, 0]
# input: [[], 0, 3, 1]
# input: [[0, 2, 0, 0], 0, 10, 0]
# input: [[0, 2, 0, 0], 0, 10, 1]
# input: [[1, 0, 0, 3, 0], 2, 12, 2]
# input: [[5, 0, 0, 5], 1, 20, 0]
# input: [[0, -2, 0, 0], 0, 4, 0]
# input: [[2, 0, -3, 0, 0], 1, 6, 1]
# input: [[0, 0, 0], 1, 0, 3]
# input: [[0, 1, 0], 0, 10, 1]
# input: [[0, 0, -1, 0], 0, 5, 0]
