"""A shared printer that always prints the most urgent waiting job next.

Jobs are [job_id, pages, priority, arrival_minute]. Higher priority first, then earlier
arrival, then lower id. A job occupies the printer for ceil(pages / speed) minutes.
"""

import heapq


def printer_queue(jobs, pages_per_minute):
    speed = max(1, pages_per_minute)
    incoming = sorted(jobs, key=lambda job: (job[3], job[0]))
    waiting = []
    clock = 0
    position = 0
    printed = []
    while position < len(incoming) or waiting:
        while position < len(incoming) and incoming[position][3] <= clock:
            job_id, pages, priority, arrival = incoming[position]
            heapq.heappush(waiting, (-priority, arrival, job_id, pages))
            position += 1
        if not waiting:
            clock = incoming[position][3]
            continue
        _, _, job_id, pages = heapq.heappop(waiting)
        clock += -(-pages // speed)
        printed.append(job_id)
    return printed


# input: [[[1, 10, 1, 0], [2, 3, 5, 1], [3, 4, 2, 1]], 2]
# input: [[], 3]
# input: [[[7, 5, 0, 4]], 0]
# input: [[[1, 2, 1, 0], [2, 2, 1, 0], [3, 2, 9, 0]], 1]
# input: [[[4, 20, 1, 0], [5, 1, 3, 30], [6, 1, 2, 2], [8, 6, 3, 3]], 5]
# input: [[[1, 0, 1, 5], [2, 9, 4, 5], [3, 9, 4, 2]], 3]
# input: [[[10, 4, 2, 0], [11, 4, 2, 8], [12, 4, 1, 1], [13, 4, 7, 100]], 4]
# input: [[[1, 6, -1, 0], [2, 6, -2, 0], [3, 6, 0, 3]], 6]
