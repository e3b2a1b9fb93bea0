"""A gas station with several pumps and a single waiting line.

Cars are [arrival_minute, litres]; they are served in arrival order (input order on ties) at
the pump that frees up first, lowest pump number on ties. Refuelling takes
ceil(litres / litres_per_minute) minutes. Cars arriving at or after closing are sent away.
Returns whether every admitted car has finished refuelling by closing time.
"""


def gas_station_queue(cars, pumps, litres_per_minute, closing_time):
    if pumps <= 0:
        return len(cars) == 0
    free_at = [0] * pumps
    rate = max(1, litres_per_minute)
    for arrival, litres in sorted(cars, key=lambda car: car[0]):
        if arrival >= closing_time:
            continue
        pump = min(range(pumps), key=lambda index: (max(free_at[index], arrival), index))
        start = max(arrival, free_at[pump])
        free_at[pump] = start + -(-litres // rate)
        if free_at[pump] > closing_time:
            return False
    return True


# input: [[[0, 40], [1, 30], [2, 20]], 2, 10, 10]
# input: [[], 0, 5, 0]
# input: [[[3, 10]], 0, 5, 100]
# input: [[[0, 50], [0, 50], [0, 50]], 3, 10, 5]
# input: [[[0, 50], [0, 50], [0, 50]], 2, 10, 9]
# input: [[[5, 10], [0, 100], [50, 1]], 1, 0, 60]
# input: [[[0, 9], [2, 9], [4, 9], [6, 9]], 1, 3, 12]
# input: [[[8, 30], [1, 5], [1, 5]], 2, 5, 9]
