"""Run-length encode a string with a cap on run length, optionally reversing the runs."""


def _encode(text, max_run=9):
    runs = []
    for char in text:
        if runs and runs[-1][0] == char and runs[-1][1] < max_run:
            runs[-1][1] += 1
        else:
            runs.append([char, 1])
    return runs


def _render(runs, keep_singles=False):
    return "".join(f"{count}{char}" if count > 1 or keep_singles else char for char, count in runs)


def run_length_codec(text, max_run, reverse_runs):
    runs = _encode(text, max_run=max(1, max_run))
    if reverse_runs:
        runs = [[char, count] for char, count in reversed(runs)]
    long_runs = sum(1 for _, count in runs if count > 2)
    return _render(runs, keep_singles=long_runs == 0)


# input: ["aaabccdddd", 9, false]
# input: ["", 3, false]
# input: ["x", 5, true]
# input: ["aaaaaaa", 3, false]
# input: ["abcabc", 2, true]
# input: ["zzzzyyx  x", 2, true]
# input: ["mmmmmmmmmmmm", 0, false]
# input: ["aabbaa", 4, false]
