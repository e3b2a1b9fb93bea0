"""Water tanks connected by overflow pipes.

Tank i holds capacities[i]; outlets[i] lists the tanks its overflow pipes lead to. Water
poured into a full tank overflows, split evenly between the outlet tanks that still have
room (the first ones get the remainder), or between all outlets when every one of them is
full. A tank without usable outlets spills onto the ground, and so does water that has
passed through more pipes than there are tanks. A negative pour drains that tank.
Returns the final level of every tank followed by the total spilled.
"""


def pour(levels, capacities, outlets, tank, amount, hops):
    if hops > len(levels):
        return amount
    taken = min(amount, max(0, capacities[tank] - levels[tank]))
    levels[tank] += taken
    excess = amount - taken
    if excess == 0:
        return 0
    pipes = [target for target in outlets[tank] if 0 <= target < len(levels)]
    open_pipes = [target for target in pipes if levels[target] < capacities[target]]
    if open_pipes:
        pipes = open_pipes
    if not pipes:
        return excess
    share, extra = divmod(excess, len(pipes))
    spilled = 0
    for index, target in enumerate(pipes):
        portion = share + (1 if index < extra else 0)
        if portion > 0:
            spilled += pour(levels, capacities, outlets, target, portion, hops + 1)
    return spilled


def water_tank_network(capacities, outlets, pours):
    levels = [0] * len(capacities)
    spilled = 0
    for tank, amount in pours:
        if tank < 0 or tank >= len(levels):
            spilled += max(0, amount)
            continue
        if amount < 0:
            levels[tank] -= min(levels[tank], -amount)
            continue
        spilled += pour(levels, capacities, outlets, tank, amount, 0)
    return levels + [spilled]


# input: [[5, 3, 3], [[1, 2], [], []], [[0, 9], [0, 4]]]
# input: [[], [], []]
# input: [[4], [[]], [[0, 10], [0, -3], [0, 1], [3, 7]]]
# input: [[2, 2], [[1], [0]], [[0, 9]]]
# input: [[3, 0, 4], [[1], [2], []], [[0, 5], [1, 2]]]
# input: [[2, 2, 2, 2], [[1, 2], [3], [3], []], [[0, 7], [0, 2], [2, -1], [0, 2]]]
# input: [[1, 5], [[7, 1], [-1]], [[0, 3], [1, 0], [1, 5]]]
# input: [[6, 1, 1, 1], [[1, 2, 3], [], [], []], [[0, 6], [0, 2], [0, 4]]]
