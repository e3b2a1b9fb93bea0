"""A bus running along its stops, adding up how many riders it carries between stops.

Stops are [boarding, alighting]. At a stop riders get off first (never more than are on
board), then waiting riders board up to capacity; anyone who does not fit stays behind.
A bus that leaves a stop full runs express past the next stop (nobody gets on or off there).
Returns the total of the loads carried on each leg between consecutive stops.
"""


def bus_route_load(stops, capacity):
    on_board = 0
    sum = 0
    skip_next = False
    for index, (boarding, alighting) in enumerate(stops):
        if skip_next:
            skip_next = False
        else:
            on_board -= min(alighting, on_board)
            room = max(0, capacity - on_board)
            on_board += min(boarding, room)
            skip_next = on_board >= capacity
        if index < len(stops) - 1:
            sum += on_board
    return sum


# input: [[[5, 0], [3, 2], [6, 1], [0, 4]], 8]
# input: [[], 10]
# input: [[[4, 0]], 0]
# input: [[[3, 5], [2, 1], [0, 0]], 3]
# input: [[[10, 0], [10, 10], [10, 0], [0, 10]], 10]
# input: [[[1, 0], [1, 0], [1, 0], [1, 0], [1, 0]], 3]
# input: [[[7, 0], [0, 3], [6, 0], [2, 9], [4, 1], [0, 5]], 7]
# input: [[[0, 0], [2, 2], [0, 1], [1, 0]], 1]
