"""A conveyor that routes packages by weight into bins of limited size.

Each bin accepts packages up to its weight limit and holds at most bin_capacity packages.
A package goes to the open bin with the tightest limit that still takes it (lowest index on
ties); empty trays (weight 0 or less) pass by. Packages no bin can take drop into the overflow
chute, and the belt jams and stops after two overflows in a row.
Returns each bin's packages in order, followed by the overflow chute.
"""


def conveyor_sorter(weights, bin_limits, bin_capacity):
    bins = [[] for _ in bin_limits]
    overflow = []
    misses_in_a_row = 0
    for weight in weights:
        if weight <= 0:
            continue
        fitting = [index for index, limit in enumerate(bin_limits)
                   if weight <= limit and len(bins[index]) < bin_capacity]
        if fitting:
            target = min(fitting, key=lambda index: (bin_limits[index], index))
            bins[target].append(weight)
            misses_in_a_row = 0
            continue
        overflow.append(weight)
        misses_in_a_row += 1
        if misses_in_a_row == 2:
            break
    return bins + [overflow]


# input: [[3, 12, 7, 1, 9], [5, 10, 15], 2]
# input: [[], [5], 1]
# input: [[4, 4, 4], [], 3]
# input: [[2, 0, -1, 2, 2, 2], [3, 3], 1]
# input: [[20, 1, 20, 20, 1], [10], 5]
# input: [[5, 5, 5, 6], [5, 6, 5], 1]
# input: [[8, 2, 9, 3, 10, 4], [9, 4], 0]
# input: [[1, 2, 3, 4, 5, 6, 7, 8], [8, 4, 2], 2]
