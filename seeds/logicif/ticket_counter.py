"""Ticket counters with one queue each; customers join the shortest queue and may jockey.

Customers are [arrival, service_time] and are numbered by position. A newcomer joins the
shortest queue (ties: the one that empties first, then the lowest number) and walks away if
even that queue has max_queue people. After each arrival, if the longest queue is two or more
longer than the shortest, its last person switches when that gets them done sooner (at most
max_switches switches in total). Returns the ids served at each counter in order, then the
ids who walked away.
"""


def ticket_counter(customers, counters, max_queue, max_switches):
    if counters <= 0:
        return [[index for index in range(len(customers))]]
    queues = [[] for _ in range(counters)]
    served = [[] for _ in range(counters)]
    walked_away = []
    switches = 0

    def finish_time(queue, now, service):
        start = queue[-1][1] if queue else now
        return max(start, now) + service

    def drain(now):
        for counter in range(counters):
            while queues[counter] and queues[counter][0][1] <= now:
                served[counter].append(queues[counter].pop(0)[0])

    def jockey(now):
        nonlocal switches
        lengths = [len(queue) for queue in queues]
        longest = lengths.index(max(lengths))
        shortest = lengths.index(min(lengths))
        if switches < max_switches and lengths[longest] - lengths[shortest] >= 2:
            customer, old_finish = queues[longest][-1]
            new_finish = finish_time(queues[shortest], now, customers[customer][1])
            if new_finish < old_finish:
                queues[longest].pop()
                queues[shortest].append([customer, new_finish])
                switches += 1

    def pick_counter(now):
        best = 0
        for counter in range(1, counters):
            size, best_size = len(queues[counter]), len(queues[best])
            free_at = finish_time(queues[counter], now, 0)
            if size < best_size:
                best = counter
            elif size == best_size and free_at < finish_time(queues[best], now, 0):
                best = counter
        return best

    order = sorted(range(len(customers)), key=lambda index: (customers[index][0], index))
    for customer in order:
        arrival, service = customers[customer]
        drain(arrival)
        target = pick_counter(arrival)
        if len(queues[target]) >= max_queue:
            walked_away.append(customer)
            continue
        queues[target].append([customer, finish_time(queues[target], arrival, service)])
        jockey(arrival)
    drain(10 ** 6)
    return served + [walked_away]


# input: [[[0, 5], [1, 5], [2, 1], [3, 2], [3, 2]], 2, 3, 2]
# input: [[], 2, 3, 1]
# input: [[[0, 3], [0, 3]], 0, 2, 0]
# input: [[[0, 4], [0, 4], [0, 4], [1, 1]], 1, 2, 5]
# input: [[[0, 9], [1, 1], [1, 1], [2, 1], [2, 1], [2, 3]], 3, 4, 3]
# input: [[[5, 2], [0, 10], [0, 1], [1, 1], [2, 1]], 2, 5, 0]
# input: [[[0, 1], [1, 1], [2, 1], [3, 1]], 2, 1, 1]
# input: [[[0, 6], [0, 6], [1, 2], [1, 2], [1, 2], [2, 2], [2, 2]], 2, 9, 1]
