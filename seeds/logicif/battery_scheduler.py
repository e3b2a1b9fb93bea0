"""Charging devices on a few chargers of different power, one session at a time.

Devices are [device_id, energy, arrival, priority]. A device's energy is cut into sessions
of at most max_session by repeatedly halving (bigger half first, at most four halvings);
its sessions run one after another, possibly on different chargers. Each time, the charger
that can start soonest is used (a charger that ran three sessions back to back rests two
minutes first; ties go to the more powerful, then lower-numbered charger). Among devices
ready by then the highest priority goes first (then earliest ready, then lowest id);
if none is ready, the earliest to become ready goes. When a session starts, every other
device that has been ready for more than 6 minutes gains one priority point. A session takes ceil(energy / power)
minutes; chargers with power 0 are broken. Returns the time the last device finishes
(-1 if some device can never charge) and the device ids in order of finishing.
"""


def split_load(energy, limit, depth=0):
    if energy <= limit or depth >= 4:
        return [energy]
    bigger = (energy + 1) // 2
    return split_load(bigger, limit, depth + 1) + split_load(energy - bigger, limit, depth + 1)


def pick_charger(free_at, powers, streak):
    best, best_start = -1, 0
    for index, power in enumerate(powers):
        if power <= 0:
            continue
        start = free_at[index] + (2 if streak[index] >= 3 else 0)
        if best == -1 or start < best_start:
            best, best_start = index, start
        elif start == best_start and power > powers[best]:
            best = index
    return best, best_start


def battery_scheduler(devices, charger_powers, max_session):
    limit = max(1, max_session)
    free_at = [0] * len(charger_powers)
    streak = [0] * len(charger_powers)
    pending = {}
    finished = []
    for device_id, energy, arrival, priority in devices:
        if energy <= 0:
            finished.append([arrival, device_id])
        else:
            pending[device_id] = [arrival, priority, split_load(energy, limit)]
    last_finish = max([end for end, _ in finished], default=0)
    while pending:
        charger, available = pick_charger(free_at, charger_powers, streak)
        if charger < 0:
            last_finish = -1
            break
        ready = [device for device in pending if pending[device][0] <= available]
        if ready:
            device = min(ready, key=lambda d: (-pending[d][1], pending[d][0], d))
        else:
            device = min(pending, key=lambda d: (pending[d][0], -pending[d][1], d))
        ready_time, _, sessions = pending[device]
        start = max(available, ready_time)
        for other in sorted(pending):
            if other != device:
                waited = start - pending[other][0]
                if waited > 6:
                    pending[other][1] += 1
        if start > free_at[charger]:
            streak[charger] = 1
        else:
            streak[charger] += 1
        power = charger_powers[charger]
        end = start + (sessions.pop(0) + power - 1) // power
        free_at[charger] = end
        if sessions:
            pending[device][0] = end
            continue
        del pending[device]
        finished.append([end, device])
        last_finish = max(last_finish, end)
    return last_finish, [device for _, device in sorted(finished)]


# input: [[[1, 10, 0, 1], [2, 6, 0, 2]], [2, 1], 8]
# input: [[], [3], 5]
# input: [[[7, 0, 4, 1], [8, 5, 0, 1]], [0, 0], 5]
# input: [[[1, 20, 0, 0]], [5], 6]
# input: [[[3, 4, 0, 0], [4, 4, 0, 9], [5, 4, 1, 5]], [2], 4]
# input: [[[1, 6, 0, 1], [2, 6, 3, 1], [3, 2, 20, 3]], [3, 3], 3]
# input: [[[1, 12, 0, 3], [2, 4, 0, 0], [3, 8, 1, 2]], [1], 4]
# input: [[[10, 100, 0, 0], [11, 1, 0, 0]], [50, 1], 20]
# input: [[[5, 3, 2, 0], [6, -4, 1, 0], [4, 3, 2, 0]], [1, 4, 4], 2]
