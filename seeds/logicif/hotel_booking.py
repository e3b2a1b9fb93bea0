"""A small hotel assigning rooms to booking requests over night ranges.

Rooms are [number, beds]; requests are [guests, check_in, check_out] or
[guests, check_in, check_out, wished_room], with check_out exclusive; a room needs
cleaning_nights empty nights between two stays. A wished room is given if it exists, has
enough beds and is free. Otherwise the request gets the free room with the fewest beds that
still fits the party (lowest number on ties). With no fitting room free, a party of one or
two is squeezed into any free room; otherwise the request is refused with -1, as are empty
date ranges and empty parties.
"""


def is_free(bookings, start, end, turnover=0):
    for taken_start, taken_end in bookings:
        if start < taken_end + turnover and taken_start < end + turnover:
            return False
    return True


def first_free(by_size, calendar, start, end, min_beds=1, turnover=0):
    for number, beds in by_size:
        if beds >= min_beds and is_free(calendar[number], start, end, turnover=turnover):
            return number
    return -1


def hotel_booking(rooms, requests, cleaning_nights):
    by_size = sorted(rooms, key=lambda room: (room[1], room[0]))
    beds_in = {number: beds for number, beds in rooms}
    calendar = {number: [] for number, _ in rooms}
    assigned = []
    for request in requests:
        guests, check_in, check_out = request[0], request[1], request[2]
        if check_out <= check_in or guests <= 0:
            assigned.append(-1)
            continue
        chosen = -1
        if len(request) > 3 and request[3] in beds_in:
            wish = request[3]
            if beds_in[wish] >= guests and is_free(calendar[wish], check_in, check_out,
                                                   turnover=cleaning_nights):
                chosen = wish
        if chosen == -1:
            chosen = first_free(by_size, calendar, check_in, check_out,
                                min_beds=guests, turnover=cleaning_nights)
        if chosen == -1 and guests <= 2:
            chosen = first_free(by_size, calendar, check_in, check_out,
                                min_beds=0, turnover=cleaning_nights)
        if chosen != -1:
            calendar[chosen].append([check_in, check_out])
        assigned.append(chosen)
    return assigned


# input: [[[101, 2], [102, 4]], [[2, 1, 3], [2, 2, 4], [3, 1, 2], [4, 2, 5]], 0]
# input: [[], [], 0]
# input: [[[7, 1]], [[1, 5, 5], [0, 1, 2], [1, 1, 2, 7]], 1]
# input: [[[1, 1], [2, 1]], [[3, 1, 4], [2, 1, 4], [2, 2, 3]], 0]
# input: [[[10, 3], [11, 3], [12, 1]], [[1, 0, 2, 11], [1, 2, 4], [3, 1, 3], [3, 0, 1], [2, 3, 5, 12]], 1]
# input: [[[5, 2]], [[2, 0, 3], [2, 3, 6], [2, 5, 9]], 1]
# input: [[[20, 6], [21, 2]], [[5, 0, 10, 21], [6, 5, 6], [1, 9, 12, 20], [2, 0, 1, 99]], 0]
# input: [[[30, 2], [31, 2]], [[2, 4, 8], [2, 1, 4, 30], [2, 3, 5], [1, 8, 9, 31], [1, 0, 9]], 0]
