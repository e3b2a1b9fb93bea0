"""A two-way intersection controller driven by car sensors, a walk button and emergencies.

One character per tick: N / E = north-south / east-west green, n / e = their yellow,
R = all red, W = pedestrian walk. A green lasts at least min_green ticks and gives way when
the cross street (or a pedestrian) is waiting and its own street is empty or max_green is
reached. One waiting car clears per green tick. An emergency cuts any green straight to red.
"""


def traffic_light_cycle(sensor_events, ticks, min_green, max_green):
    waiting = {"ns": 0, "ew": 0}
    pedestrian = False
    emergency = False
    phase = "N"
    timer = 0
    last_green = "N"
    timeline = []
    events = sorted(sensor_events)
    position = 0
    for tick in range(min(ticks, 30)):
        while position < len(events) and events[position][0] <= tick:
            kind = events[position][1]
            if kind == "ped":
                pedestrian = True
            elif kind == "emergency":
                emergency = True
            elif kind in waiting:
                waiting[kind] += 1
            position += 1
        timeline.append(phase)
        timer += 1
        if phase in ("N", "E"):
            own, cross = ("ns", "ew") if phase == "N" else ("ew", "ns")
            if waiting[own] > 0:
                waiting[own] -= 1
            if emergency:
                last_green, phase, timer = phase, "R", 0
                continue
            if timer < min_green:
                continue
            wants_change = waiting[cross] > 0 or pedestrian
            if wants_change and (waiting[own] == 0 or timer >= max_green):
                phase, timer = phase.lower(), 0
            continue
        if phase in ("n", "e"):
            if timer >= 2:
                last_green, phase, timer = phase.upper(), "R", 0
            continue
        if phase == "R":
            if emergency:
                emergency = False
                timer = 0
                continue
            if pedestrian:
                phase, pedestrian = "W", False
            else:
                phase = "E" if last_green == "N" else "N"
            timer = 0
            continue
        if timer >= 2:
            phase = "E" if last_green == "N" else "N"
            timer = 0
    return "".join(timeline)


# input: [[[0, "ns"], [1, "ew"], [2, "ew"]], 14, 2, 5]
# input: [[], 0, 1, 1]
# input: [[], 6, 2, 4]
# input: [[[0, "ew"], [3, "ped"]], 16, 3, 6]
# input: [[[0, "ns"], [0, "ns"], [0, "ns"], [0, "ns"], [0, "ns"], [0, "ns"], [1, "ew"]], 18, 2, 4]
# input: [[[2, "emergency"], [1, "ew"], [9, "ped"], [9, "ns"]], 20, 1, 3]
# input: [[[0, "bike"], [0, "ped"]], 10, 1, 1]
# input: [[[0, "ew"], [0, "ns"], [4, "ew"], [5, "emergency"], [12, "ns"], [12, "ped"]], 40, 2, 3]
