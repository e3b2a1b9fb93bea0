"""Flood-fill a small character grid: regions are 4-connected cells of the same character."""


def _fill(grid, seen, row, col, char):
    if row < 0 or row >= len(grid) or col < 0 or col >= len(grid[row]):
        return 0
    if (row, col) in seen or grid[row][col] != char:
        return 0
    seen.add((row, col))
    return (1 + _fill(grid, seen, row + 1, col, char) + _fill(grid, seen, row - 1, col, char)
            + _fill(grid, seen, row, col + 1, char) + _fill(grid, seen, row, col - 1, char))


def flood_fill_regions(grid, background):
    seen = set()
    sizes = []
    per_char = {}
    singles = 0
    large = 0
    largest_char = ""
    largest = 0
    for row in range(len(grid)):
        for col in range(len(grid[row])):
            char = grid[row][col]
            if char == background or (row, col) in seen:
                continue
            size = _fill(grid, seen, row, col, char)
            sizes.append(size)
            per_char[char] = per_char.get(char, 0) + 1
            if size >= 3:
                large += 1
            if size == 1:
                singles += 1
            if size > largest:
                largest, largest_char = size, char
    return {
        "regions": len(sizes),
        "largest": largest,
        "largest_char": largest_char,
        "large": large,
        "singles": singles,
        "sizes": sorted(sizes, reverse=True),
        "per_char": {char: per_char[char] for char in sorted(per_char)},
    }


# input: [["aab", "abb", "cca"], "."]
# input: [[], "."]
# input: [["...", "...."], "."]
# input: [["x"], "."]
# input: [["ab", "ba", "ab"], "."]
# input: [["aaaa", "a..a", "aaaa"], "."]
# input: [["zz.q", "z..q", ".qqq", "z.z."], "."]
# input: [["abc", "ab", "a"], "b"]
