"""Round-robin CPU scheduling with a fixed time quantum.

Processes are [pid, burst, arrival]. Newly arrived processes join the ready queue before a
preempted process is put back at its tail. Returns pids in the order they finish.
"""

from collections import deque


def admit(pending, ready, clock):
    while pending and pending[0][2] <= clock:
        pid, burst, _ = pending.popleft()
        ready.append([pid, burst])


def round_robin_scheduler(processes, quantum):
    quantum = max(1, quantum)
    pending = deque(sorted(processes, key=lambda process: (process[2], process[0])))
    ready = deque()
    clock = 0
    finished = []
    while pending or ready:
        admit(pending, ready, clock)
        if not ready:
            clock = pending[0][2]
            continue
        pid, remaining = ready.popleft()
        slice_length = min(quantum, remaining)
        clock += slice_length
        admit(pending, ready, clock)
        if remaining > slice_length:
            ready.append([pid, remaining - slice_length])
        else:
            finished.append(pid)
    return finished


# input: [[[1, 5, 0], [2, 3, 1], [3, 1, 2]], 2]
# input: [[], 4]
# input: [[[9, 4, 0]], 0]
# input: [[[1, 3, 0], [2, 3, 0], [3, 3, 0]], 3]
# input: [[[1, 6, 0], [2, 2, 10], [3, 4, 3]], 2]
# input: [[[5, 0, 0], [6, 2, 0], [4, 1, 0]], 1]
# input: [[[1, 7, 0], [2, 4, 2], [3, 5, 4], [4, 2, 6]], 3]
# input: [[[2, 3, 5], [1, 3, 5]], 10]
