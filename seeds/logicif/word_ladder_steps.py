"""Fewest one-letter changes that turn a start word into a goal word, using only dictionary words."""

from collections import deque


def _mismatches(word_a, word_b, limit=2):
    if not word_a or not word_b or limit == 0:
        return 0
    differ = int(word_a[0] != word_b[0])
    return differ + _mismatches(word_a[1:], word_b[1:], limit=limit - differ)


def word_ladder_steps(start, goal, dictionary):
    words = sorted(set(dictionary))
    queue = deque([(start, 0)])
    seen = {start}
    while queue:
        word, steps = queue.popleft()
        if word == goal:
            return steps
        neighbours = [candidate for candidate in words
                      if candidate not in seen and len(candidate) == len(word) and _mismatches(word, candidate) == 1]
        for candidate in neighbours:
            seen.add(candidate)
            queue.append((candidate, steps + 1))
    return -1


# input: ["cold", "warm", ["cord", "card", "ward", "warm", "worm", "word"]]
# input: ["same", "same", []]
# input: ["cat", "dog", ["cot", "cog", "dog", "dot"]]
# input: ["cat", "dog", ["bat", "bag", "big"]]
# input: ["a", "c", ["b", "c"]]
# input: ["lead", "gold", ["load", "goad", "gold", "lead", "loud"]]
# input: ["hit", "cog", ["hot", "dot", "dog", "lot", "log", "cog"]]
# input: ["ab", "abc", ["abc", "ac"]]
