"""A multi-level parking garage with a grace period, hourly fees and a daily cap.

Events are ["enter", plate, minute, oversized] / ["leave", plate, minute] /
["validate", plate, minutes_off]. Regular cars fill the lowest level with room; oversized
vehicles take two spaces, are sent to the highest level with room and pay double (with a
higher cap). A vehicle entering when at least 80% of all spaces are already taken pays one
more per hour. Validations knock minutes off a stay, at most 120 in total. Leaving without
a known entry costs one daily cap (nothing for a plate that was turned away); vehicles still
inside pay up to the last entry/exit minute.
Returns the fees collected and the plates turned away.
"""


def parking_fee(minutes, rate, daily_cap=40, grace=15):
    if minutes <= grace:
        return 0
    days, rest_hours = divmod((minutes + 59) // 60, 24)
    return days * daily_cap + min(rest_hours * rate, daily_cap)


def vehicle_fee(minutes, rate, spaces):
    if spaces > 1:
        return parking_fee(minutes, rate * 2, daily_cap=60)
    return parking_fee(minutes, rate)


def pick_level(occupancy, capacities, spaces):
    levels = list(range(len(capacities)))
    if spaces > 1:
        levels.reverse()
    for level in levels:
        if occupancy[level] + spaces <= capacities[level]:
            return level
    return -1


def parking_garage(capacities, events, rate):
    occupancy = [0] * len(capacities)
    parked = {}
    discounts = {}
    collected = 0
    turned_away = []
    for event in events:
        action, plate, minute = event[0], event[1], event[2]
        if action == "enter":
            if plate in parked:
                continue
            spaces = 2 if len(event) > 3 and event[3] else 1
            level = pick_level(occupancy, capacities, spaces)
            if level < 0:
                turned_away.append(plate)
                continue
            stay_rate = rate
            if 5 * sum(occupancy) >= 4 * sum(capacities):
                stay_rate += 1
            occupancy[level] += spaces
            parked[plate] = [level, minute, spaces, stay_rate]
        elif action == "validate":
            if plate in parked:
                discounts[plate] = discounts.get(plate, 0) + minute
                if discounts[plate] > 120:
                    discounts[plate] = 120
        elif action == "leave":
            if plate not in parked:
                if plate not in turned_away:
                    collected += parking_fee(24 * 60, rate)
                continue
            level, entered, spaces, stay_rate = parked.pop(plate)
            stay = max(0, minute - entered - discounts.pop(plate, 0))
            collected += vehicle_fee(stay, stay_rate, spaces)
            occupancy[level] -= spaces
    closing = max([event[2] for event in events if event[0] != "validate"], default=0)
    for plate in sorted(parked):
        level, entered, spaces, stay_rate = parked[plate]
        stay = max(0, closing - entered - discounts.get(plate, 0))
        collected += vehicle_fee(stay, stay_rate, spaces)
    return collected, turned_away


# input: [[2, 1], [["enter", 11, 0], ["enter", 12, 5], ["enter", 13, 6], ["enter", 14, 7], ["leave", 11, 200], ["leave", 12, 10]], 3]
# input: [[], [], 5]
# input: [[1], [["leave", 7, 30]], 2]
# input: [[3], [["enter", 1, 0, true], ["enter", 2, 0, true], ["enter", 3, 60], ["leave", 1, 125], ["enter", 2, 130, true]], 4]
# input: [[2, 2], [["enter", 5, 0], ["validate", 5, 90], ["leave", 5, 100], ["enter", 6, 10, true], ["enter", 5, 120]], 6]
# input: [[1, 1], [["enter", 8, 0], ["enter", 8, 10], ["leave", 8, 900], ["leave", 8, 1000]], 3]
# input: [[5], [["enter", 1, 0], ["enter", 2, 0], ["enter", 3, 0], ["enter", 4, 0], ["enter", 5, 0], ["leave", 5, 100], ["leave", 1, 100]], 2]
# input: [[0, 2], [["enter", 3, 0, true], ["enter", 4, 1], ["leave", 4, 14], ["leave", 3, 61], ["validate", 9, 30]], 10]
# input: [[1], [["enter", 1, 0], ["enter", 2, 0], ["leave", 2, 90], ["validate", 1, 500], ["leave", 1, 300]], 7]
