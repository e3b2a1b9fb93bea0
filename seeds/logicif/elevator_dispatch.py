"""A single elevator sweeping up and down (SCAN), picking up floor calls as they appear.

Calls arrive over time as [tick, floor]. Each tick the car either opens its doors at a
requested floor or moves one floor. Turning around costs a tick unless the car is busy.
When nothing is pending it drifts back to its home floor.
"""


def elevator_dispatch(calls, top_floor, home_floor):
    arrivals = sorted(calls)
    pending = []
    floor = home_floor
    direction = 1
    moves = 0
    served = []

    def release(now):
        nonlocal arrivals
        ready = [target for tick, target in arrivals if tick <= now]
        arrivals = [[tick, target] for tick, target in arrivals if tick > now]
        for target in ready:
            if 0 <= target <= top_floor and target not in pending:
                pending.append(target)

    def step(way):
        nonlocal floor, moves, direction
        if way != direction:
            direction = way
            if len(pending) < 3:
                return
        if 0 <= floor + way <= top_floor:
            floor += way
            moves += 1

    for tick in range(30):
        release(tick)
        if floor in pending:
            pending.remove(floor)
            served.append(floor)
            continue
        if not pending:
            if not arrivals and floor == home_floor:
                break
            if floor > home_floor:
                step(-1)
            elif floor < home_floor:
                step(1)
            continue
        ahead = [target for target in pending if (target - floor) * direction > 0]
        if ahead:
            step(direction)
        else:
            step(-direction)
    return moves, served


# input: [[[0, 5], [1, 2], [2, 7]], 9, 0]
# input: [[], 5, 0]
# input: [[[0, 3]], 3, 3]
# input: [[[0, 1], [0, 4], [3, 0]], 6, 2]
# input: [[[5, 8], [0, 12], [1, -1]], 8, 4]
# input: [[[0, 6], [2, 1], [4, 5], [6, 2]], 7, 0]
# input: [[[10, 2], [0, 2]], 4, 0]
# input: [[[0, 0], [0, 5], [0, 3], [1, 9]], 9, 9]
