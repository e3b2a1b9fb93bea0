"""Longest line of dominoes that can be laid end to end (tiles may be flipped), optionally from a given pip."""


def _longest_from(end, remaining):
    best = 0
    for index, (left, right) in enumerate(remaining):
        if end not in (left, right):
            continue
        rest = remaining[:index] + remaining[index + 1:]
        next_end = right if left == end else left
        best = max(best, 1 + _longest_from(next_end, rest))
    return best


def domino_chain(tiles, must_start):
    best = 0
    for index, (left, right) in enumerate(tiles):
        rest = tiles[:index] + tiles[index + 1:]
        for flipped in (False, True):
            if flipped and left == right:
                continue
            head, tail = (right, left) if flipped else (left, right)
            if must_start >= 0 and head != must_start:
                continue
            length = 1 + _longest_from(tail, rest)
            if length > best:
                best = length
    return best


# input: [[[1, 2], [2, 3], [3, 1]], -1]
# input: [[], -1]
# input: [[[4, 4]], 4]
# input: [[[4, 4]], 2]
# input: [[[1, 2], [3, 4], [2, 5], [5, 5], [4, 1]], -1]
# input: [[[0, 1], [1, 1], [1, 2], [2, 0], [6, 6]], 2]
# input: [[[3, 5], [5, 6], [6, 3], [3, 2], [2, 2], [1, 4]], 5]
# input: [[[1, 2], [1, 2], [2, 1], [1, 3]], 3]
