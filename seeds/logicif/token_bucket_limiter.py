"""A token-bucket rate limiter.

The bucket starts full with `capacity` tokens and gains one token every `refill_every`
time units (never above capacity). Each request at a given timestamp spends `cost` tokens
if it can and is rejected otherwise. Timestamps are processed in the given order; one
that goes back in time is treated as happening at the latest time seen.
Returns the indices of the rejected requests.
"""


def token_bucket_limiter(timestamps, capacity, refill_every, cost):
    tokens = capacity
    interval = max(1, refill_every)
    next_refill = interval
    rejected = []
    now = 0
    for index, stamp in enumerate(timestamps):
        now = max(now, stamp)
        if now >= next_refill:
            gained = (now - next_refill) // interval + 1
            tokens = min(capacity, tokens + gained)
            next_refill += gained * interval
        if tokens >= cost:
            tokens -= cost
        else:
            rejected.append(index)
    return rejected


# input: [[0, 0, 0, 1, 5, 5], 2, 2, 1]
# input: [[], 3, 1, 1]
# input: [[7], 0, 5, 1]
# input: [[0, 1, 2, 3, 4, 5, 6, 7], 3, 3, 1]
# input: [[10, 4, 10, 11, 30], 1, 10, 1]
# input: [[0, 0, 0, 0], 5, 1, 2]
# input: [[1, 2, 3, 100, 100, 100, 101], 2, 0, 1]
# input: [[0, 3, 6, 9], 4, 1, 0]
