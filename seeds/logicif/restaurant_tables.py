"""A restaurant seating parties at tables, with a waiting list and impatient guests.

Parties are [arrival, size, duration] and are numbered by position. A party sits at the
smallest free table that fits it (lowest number on ties) and keeps it for `duration`
minutes. Whenever tables may have changed (a party arrives or a table frees up) the waiting
list is scanned in order and every party that now fits is seated; a party that has waited
more than `patience` minutes by then leaves instead. Parties bigger than every table leave
at once. Returns the number of parties seated and the sorted ids of those who left.
"""


def free_table(free_at, sizes, size, now):
    best = -1
    for table, capacity in enumerate(sizes):
        if free_at[table] <= now and capacity >= size:
            if best == -1 or capacity < sizes[best]:
                best = table
    return best


def seat_waiting(waiting, parties, free_at, sizes, now, patience):
    still_waiting, left, seated = [], [], 0
    for party in waiting:
        arrival, size, duration = parties[party]
        table = free_table(free_at, sizes, size, now)
        if now - arrival > patience:
            left.append(party)
        elif table >= 0:
            free_at[table] = now + duration
            seated += 1
        else:
            still_waiting.append(party)
    return still_waiting, left, seated


def restaurant_tables(table_sizes, parties, patience):
    free_at = [0] * len(table_sizes)
    order = sorted(range(len(parties)), key=lambda party: (parties[party][0], party))
    biggest = max(table_sizes, default=-1)
    waiting, gave_up, seated = [], [], 0
    clock, position = 0, 0
    while position < len(order) or waiting:
        upcoming = [time for time in free_at if time > clock]
        if position < len(order):
            upcoming.append(parties[order[position]][0])
        if not upcoming:
            gave_up += waiting
            break
        clock = max(clock, min(upcoming))
        while position < len(order) and parties[order[position]][0] <= clock:
            party = order[position]
            position += 1
            if parties[party][1] > biggest:
                gave_up.append(party)
            else:
                waiting.append(party)
        waiting, left, sat = seat_waiting(waiting, parties, free_at, table_sizes, clock, patience)
        gave_up += left
        seated += sat
    return seated, sorted(gave_up)


# input: [[2, 4], [[0, 2, 30], [5, 4, 20], [10, 3, 10], [12, 2, 5]], 15]
# input: [[], [], 5]
# input: [[4], [[0, 6, 10], [1, 4, 10], [2, 4, 10], [3, 4, 10]], 8]
# input: [[2, 2], [[0, 1, 60], [0, 2, 60], [0, 2, 10]], 100]
# input: [[6], [[5, 1, 1], [0, 6, 5], [5, 2, 3]], 0]
# input: [[3, 5, 2], [[0, 2, 8], [0, 2, 8], [1, 2, 4], [2, 5, 3]], 4]
# input: [[2], [[0, 2, 4], [1, 1, 4], [2, 2, 4], [3, 1, 4]], 5]
# input: [[10], [[0, 0, 0], [0, 10, 0]], 0]
