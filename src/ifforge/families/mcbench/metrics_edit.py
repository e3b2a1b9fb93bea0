"""Character-level rubrics: edit distances, alignments and string similarities.

A character is one Unicode code point (an emoji made of one code point is one character; a
combining mark is a character of its own). jellyfish compares grapheme clusters instead, so on
text with combining marks (Devanagari, Tibetan) it gives other values; rapidfuzz compares code
points as we do.
"""

from __future__ import annotations

from ifforge.families.mcbench.rubric import Metric, Step, declare

CHARS_A = Step("Characters of A", r"Split A into its characters (Unicode code points: a combining mark is a character "
               r"of its own), in order: $A = (A_1, \dots, A_{|A|})$. Give the list.",
               '''def step1(a):
    return list(a)''')
CHARS_B = Step("Characters of B", r"Split B into its characters (Unicode code points), in order: "
               r"$B = (B_1, \dots, B_{|B|})$. Give the list.",
               '''def step2(b):
    return list(b)''')

# The edit table's last row (step 3 of Levenshtein and of the error rates, characters or words)
EDIT_ROW = '''def step3(s1, s2):
    row = list(range(len(s2) + 1))
    for i, x in enumerate(s1, 1):
        new = [i]
        for j, y in enumerate(s2, 1):
            new.append(min(row[j] + 1, new[j - 1] + 1, row[j - 1] + (0 if x == y else 1)))
        row = new
    return row'''
# Steps 3 to 5 of an error rate (characters here, words in `metrics_ngram`): the edits per token of B
EDIT_TABLE = Step("Last row of the edit table",
                  r"$D_{i,0} = i$, $D_{0,j} = j$, $D_{i,j} = \min(D_{i-1,j} + 1,\ D_{i,j-1} + 1,\ D_{i-1,j-1} + c)$ "
                  r"with $c = 0$ if $A_i = B_j$ else $1$. Give $[D_{|A|,0}, \dots, D_{|A|,|B|}]$.", EDIT_ROW)
def of_characters(metric_id: str, name: str, summary: str, *rest: Step, **more: str) -> type[Metric]:
    """A metric on characters whose first steps are the characters of A and of B (`rest` goes on
    from step 3; `more`: its direction, helpers, notes), registered."""
    return declare(metric_id, name, "characters", summary, (CHARS_A, CHARS_B, *rest), **more)


def last_of_row(title: str, text: str) -> Step:
    """Step 4 of a metric whose step 3 gives a table's last row: the score is that row's last number."""
    return Step(title, text, '''def step4(s3):
    return s3[-1]''')


EDITS = last_of_row("Edits", r"$E = D_{|A|,|B|}$.")
RATE = Step("Rate", r"The NLP score is $E / |B|$.", '''def step5(s2, s4):
    return s4 / len(s2)''')


Levenshtein = of_characters(
    "levenshtein", "Levenshtein distance",
    "the least number of single-character insertions, deletions and substitutions that turn A into B",
    Step(
        "Last row of the edit table",
        r"Fill the table $D$ with $D_{i,0} = i$, $D_{0,j} = j$ and, for $1 \le i \le |A|$, $1 \le j \le |B|$: "
        r"$D_{i,j} = \min(D_{i-1,j} + 1,\ D_{i,j-1} + 1,\ D_{i-1,j-1} + c)$ where $c = 0$ if $A_i = B_j$ and "
        r"$c = 1$ otherwise. Give the last row $[D_{|A|,0}, \dots, D_{|A|,|B|}]$.", EDIT_ROW),
    last_of_row("Distance", r"The NLP score is $D_{|A|,|B|}$, the last number of that row."),
    direction="distance")


DamerauLevenshtein = of_characters(
    "damerau_levenshtein", "Damerau-Levenshtein distance",
    "the least number of insertions, deletions, substitutions and transpositions of two adjacent "
    "characters that turn A into B, where a transposed pair may still be edited afterwards",
    Step(
        "Last row of the transposition-aware table",
        r"Let $n = |A|$, $m = |B|$, $M = n + m$. Fill $H$ with rows $-1..n$ and columns $-1..m$: "
        r"$H_{-1,j} = H_{i,-1} = M$, $H_{i,0} = i$, $H_{0,j} = j$. Keep $\mathrm{last}(x)$, the last row $i$ "
        r"(starting at 0 for none) where $A_i = x$ among the rows done. For $i = 1..n$: set $l = 0$; for $j = 1..m$: "
        r"$k = \mathrm{last}(B_j)$, $l' = l$, $c = 0$ if $A_i = B_j$ (then set $l = j$) else $c = 1$; "
        r"$H_{i,j} = \min(H_{i-1,j-1} + c,\ H_{i,j-1} + 1,\ H_{i-1,j} + 1,\ H_{k-1,l'-1} + (i-k-1) + 1 + (j-l'-1))$; "
        r"after the row, set $\mathrm{last}(A_i) = i$. Give $[H_{n,0}, \dots, H_{n,m}]$.",
        '''def step3(s1, s2):
    n, m = len(s1), len(s2)
    big = n + m
    h = [[big] * (m + 2) for _ in range(n + 2)]  # h[i + 1][j + 1] holds H[i][j]
    for i in range(n + 1):
        h[i + 1][1] = i
    for j in range(m + 1):
        h[1][j + 1] = j
    last = {}
    for i in range(1, n + 1):
        l = 0
        for j in range(1, m + 1):
            k = last.get(s2[j - 1], 0)
            before = l
            if s1[i - 1] == s2[j - 1]:
                cost = 0
                l = j
            else:
                cost = 1
            h[i + 1][j + 1] = min(h[i][j] + cost, h[i + 1][j] + 1, h[i][j + 1] + 1,
                                  h[k][before] + (i - k - 1) + 1 + (j - before - 1))
        last[s1[i - 1]] = i
    return h[n + 1][1:]'''), last_of_row("Distance", r"The NLP score is $H_{n,m}$, the last number of that row."),
    direction="distance")


Hamming = of_characters(
    "hamming", "Hamming distance",
    "the number of positions where A and B differ, every position past the shorter string counting as "
    "different",
    Step(
        "Mismatches over the common length",
        r"Count the positions $i \le \min(|A|, |B|)$ with $A_i \ne B_i$.",
        '''def step3(s1, s2):
    return sum(1 for x, y in zip(s1, s2) if x != y)'''), Step(
        "Length difference", r"Compute $\left||A| - |B|\right|$.",
        '''def step4(s1, s2):
    return abs(len(s1) - len(s2))'''), Step(
        "Distance", "The NLP score is the sum of the two previous values.",
        '''def step5(s3, s4):
    return s3 + s4'''),
    direction="distance")


Lee = declare(
    "lee", "Lee distance", "characters",
    "a circular distance between the characters of A and B at each position, over the alphabet the two "
    "strings use",
    (Step(
        "Alphabet", r"List every distinct character of A and B together, sorted by Unicode code point.",
        '''def step1(a, b):
    return sorted(set(a) | set(b))'''), Step(
        "Alphabet size", r"$q$ is the number of characters in the alphabet.",
        '''def step2(s1):
    return len(s1)'''), Step(
        "Positions in the alphabet",
        r"Replace every character of A, then of B, by its position in the alphabet (from 0). Give $[x, y]$: "
        r"the list for A and the list for B.",
        '''def step3(a, b, s1):
    index = {c: i for i, c in enumerate(s1)}
    return [[index[c] for c in a], [index[c] for c in b]]'''), Step(
        "Weights over the common length",
        r"For $i = 1..\min(|A|, |B|)$: $w_i = \min(|x_i - y_i|,\ q - |x_i - y_i|)$. Give the list.",
        '''def step4(s2, s3):
    x, y = s3
    return [min(abs(p - r), s2 - abs(p - r)) for p, r in zip(x, y)]'''), Step(
        "Distance",
        r"The NLP score is $\sum_i w_i + \left||A| - |B|\right| \cdot \lfloor q / 2 \rfloor$.",
        '''def step5(a, b, s2, s4):
    return sum(s4) + abs(len(a) - len(b)) * (s2 // 2)''')),
    direction="distance",
    notes="Lee distance is defined for equal lengths over a fixed alphabet; here the alphabet is the sorted set of "
          "characters of A and B, and each position past the shorter string adds the largest weight, floor(q/2).")


Bag = declare(
    "bag", "bag distance", "characters",
    "how many characters are left over when the multisets of characters of A and B are matched",
    (Step(
        "Character counts of A", "Count each character of A. Give an object from character to count.",
        '''def step1(a):
    counts = {}
    for c in a:
        counts[c] = counts.get(c, 0) + 1
    return counts'''), Step(
        "Character counts of B", "Count each character of B. Give an object from character to count.",
        '''def step2(b):
    counts = {}
    for c in b:
        counts[c] = counts.get(c, 0) + 1
    return counts'''), Step(
        "Left over in A", r"$L_A = \sum_c \max(0, n_A(c) - n_B(c))$ over the characters $c$ of A.",
        '''def step3(s1, s2):
    return sum(max(0, n - s2.get(c, 0)) for c, n in s1.items())'''), Step(
        "Left over in B", r"$L_B = \sum_c \max(0, n_B(c) - n_A(c))$ over the characters $c$ of B.",
        '''def step4(s1, s2):
    return sum(max(0, n - s1.get(c, 0)) for c, n in s2.items())'''), Step(
        "Distance", r"The NLP score is $\max(L_A, L_B)$.",
        '''def step5(s3, s4):
    return max(s3, s4)''')),
    direction="distance")


JARO_MATCH = '''def window_matches(a, b):
    """The matched characters of a and of b, each in its own order."""
    window = max(0, max(len(a), len(b)) // 2 - 1)
    taken = [False] * len(b)
    from_a = []
    for i, c in enumerate(a):
        for j in range(max(0, i - window), min(len(b), i + window + 1)):
            if not taken[j] and b[j] == c:
                taken[j] = True
                from_a.append(c)
                break
    from_b = [c for j, c in enumerate(b) if taken[j]]
    return from_a, from_b


def window_similarity(a, b):
    from_a, from_b = window_matches(a, b)
    m = len(from_a)
    if m == 0:
        return 0.0
    t = sum(1 for x, y in zip(from_a, from_b) if x != y) // 2
    return (m / len(a) + m / len(b) + (m - t) / m) / 3'''

MATCH_TEXT = (r"Characters are Unicode code points. Let $w = \max(0, \lfloor \max(|A|, |B|) / 2 \rfloor - 1)$. "
              r"Go through A from left to right; "
              r"character $A_i$ (from 0) matches the leftmost character $B_j$ not matched yet with $B_j = A_i$ and "
              r"$|i - j| \le w$, if there is one.")


Jaro = declare(
    "jaro", "Jaro similarity", "characters",
    "a similarity from the characters A and B share within a window, and how many of them are out of order",
    (Step(
        "Window", r"$w = \max(0, \lfloor \max(|A|, |B|) / 2 \rfloor - 1)$.",
        '''def step1(a, b):
    return max(0, max(len(a), len(b)) // 2 - 1)'''), Step(
        "Matched characters of A", MATCH_TEXT + " Give the matched characters of A, in the order of A.",
        '''def step2(a, b):
    return window_matches(a, b)[0]'''), Step(
        "Matched characters of B", "The characters of B matched in the previous step, in the order of B.",
        '''def step3(a, b):
    return window_matches(a, b)[1]'''), Step(
        "Transpositions",
        r"$t$ is half the number of positions $k$ where the two lists differ, rounded down.",
        '''def step4(s2, s3):
    return sum(1 for x, y in zip(s2, s3) if x != y) // 2'''), Step(
        "Similarity",
        r"With $m$ the number of matched characters: the NLP score is $0$ if $m = 0$, else "
        r"$\frac{1}{3}\left(\frac{m}{|A|} + \frac{m}{|B|} + \frac{m - t}{m}\right)$.",
        '''def step5(a, b, s2, s4):
    m = len(s2)
    return 0.0 if m == 0 else (m / len(a) + m / len(b) + (m - s4) / m) / 3''')),
    helpers=JARO_MATCH)


JaroWinkler = declare(
    "jaro_winkler", "Jaro-Winkler similarity", "characters",
    "a character similarity within a window, raised for strings that start alike",
    (Step(
        "Matched characters of A", MATCH_TEXT + " Give the matched characters of A, in the order of A.",
        '''def step1(a, b):
    return window_matches(a, b)[0]'''), Step(
        "Matched characters of B", "The characters of B matched in the previous step, in the order of B.",
        '''def step2(a, b):
    return window_matches(a, b)[1]'''), Step(
        "Base similarity",
        r"With $m$ matches and $t$ half the number of positions where the two lists differ (rounded down): "
        r"$J = 0$ if $m = 0$, else $\frac{1}{3}\left(\frac{m}{|A|} + \frac{m}{|B|} + \frac{m - t}{m}\right)$.",
        '''def step3(a, b, s1, s2):
    m = len(s1)
    if m == 0:
        return 0.0
    t = sum(1 for x, y in zip(s1, s2) if x != y) // 2
    return (m / len(a) + m / len(b) + (m - t) / m) / 3'''), Step(
        "Common prefix", r"$\ell$ is the number of leading characters A and B share, at most 4.",
        '''def step4(a, b):
    length = 0
    for x, y in zip(a[:4], b[:4]):
        if x != y:
            break
        length += 1
    return length'''), Step(
        "Similarity",
        r"The NLP score is $J + 0.1\,\ell\,(1 - J)$ if $J > 0.7$, and $J$ otherwise.",
        '''def step5(s3, s4):
    return s3 + 0.1 * s4 * (1 - s3) if s3 > 0.7 else s3''')),
    helpers=JARO_MATCH)


RatcliffObershelp = declare(
    "ratcliff_obershelp", "Ratcliff-Obershelp similarity", "characters",
    "twice the characters found by repeatedly matching the longest common substrings, over the total length",
    (Step(
        "Matching blocks",
        r"Find the longest common substring of A and B (on a tie, the one starting first in A, then first in B); "
        r"then do the same, recursively, on the parts of A and B left of it and on the parts right of it. "
        r"Give every block as $[i, j, k]$ (start in A, start in B, from 0, and length), sorted by $i$.",
        '''def step1(a, b):
    def longest(a_lo, a_hi, b_lo, b_hi):
        best = (a_lo, b_lo, 0)
        for i in range(a_lo, a_hi):
            for j in range(b_lo, b_hi):
                k = 0
                while i + k < a_hi and j + k < b_hi and a[i + k] == b[j + k]:
                    k += 1
                if k > best[2]:
                    best = (i, j, k)
        return best

    def blocks(a_lo, a_hi, b_lo, b_hi):
        i, j, k = longest(a_lo, a_hi, b_lo, b_hi)
        if k == 0:
            return []
        return blocks(a_lo, i, b_lo, j) + [[i, j, k]] + blocks(i + k, a_hi, j + k, b_hi)

    return blocks(0, len(a), 0, len(b))'''), Step(
        "Matched characters", r"$M$ is the sum of the blocks' lengths.",
        '''def step2(s1):
    return sum(k for _, _, k in s1)'''), Step(
        "Total length", r"$T = |A| + |B|$.",
        '''def step3(a, b):
    return len(a) + len(b)'''), Step(
        "Similarity", r"The NLP score is $2M / T$ (1 when $T = 0$).",
        '''def step4(s2, s3):
    return 1.0 if s3 == 0 else 2 * s2 / s3''')))


LongestCommonSubstring = declare(
    "lcsstr", "longest common substring", "characters",
    "the length of the longest run of characters A and B share, over the longer string's length",
    (Step(
        "Run lengths, last row",
        r"Fill $R_{i,j}$ = the length of the common run ending at $A_i$ and $B_j$: $R_{i,j} = R_{i-1,j-1} + 1$ if "
        r"$A_i = B_j$, else $0$ ($R$ is 0 outside the strings). Give the last row $[R_{|A|,1}, \dots, R_{|A|,|B|}]$.",
        '''def step1(a, b):
    row = [0] * len(b)
    for x in a:
        row = [(row[j - 1] + 1 if j > 0 else 1) if x == y else 0 for j, y in enumerate(b)]
    return row'''), Step(
        "Longest shared run",
        r"The largest $R_{i,j}$ over the whole table gives the longest run of characters that A and B share; on a "
        r"tie take the one ending first in A. Give that run (a string).",
        '''def step2(a, b):
    best, end = 0, 0
    row = [0] * len(b)
    for i, x in enumerate(a):
        row = [(row[j - 1] + 1 if j > 0 else 1) if x == y else 0 for j, y in enumerate(b)]
        for value in row:
            if value > best:
                best, end = value, i + 1
    return a[end - best:end]'''), Step(
        "Its length", r"$L$ is the run's length in characters.",
        '''def step3(s2):
    return len(s2)'''), Step(
        "Similarity", r"The NLP score is $L / \max(|A|, |B|)$ (1 when both are empty).",
        '''def step4(a, b, s3):
    longer = max(len(a), len(b))
    return 1.0 if longer == 0 else s3 / longer''')))


NeedlemanWunsch = of_characters(
    "needleman_wunsch", "Needleman-Wunsch score",
    "the best score of a global alignment of A and B: +1 a match, -1 a mismatch, -1 a gap",
    Step(
        "Last row of the score table",
        r"$F_{i,0} = -i$, $F_{0,j} = -j$, and $F_{i,j} = \max(F_{i-1,j-1} + s,\ F_{i-1,j} - 1,\ F_{i,j-1} - 1)$ "
        r"with $s = 1$ if $A_i = B_j$ else $s = -1$. Give $[F_{|A|,0}, \dots, F_{|A|,|B|}]$.",
        '''def step3(s1, s2):
    row = [-j for j in range(len(s2) + 1)]
    for i, x in enumerate(s1, 1):
        new = [-i]
        for j, y in enumerate(s2, 1):
            new.append(max(row[j - 1] + (1 if x == y else -1), row[j] - 1, new[j - 1] - 1))
        row = new
    return row'''), last_of_row("Score", r"The NLP score is $F_{|A|,|B|}$."))

# Smith-Waterman's table, row by row: its steps 3 and 4 each fill it (a step's code stands alone)
LOCAL_TABLE = '''    row = [0] * (len(s2) + 1)
    for x in s1:
        new = [0]
        for j, y in enumerate(s2, 1):
            new.append(max(0, row[j - 1] + (2 if x == y else -1), row[j] - 1, new[j - 1] - 1))
        row = new'''


SmithWaterman = of_characters(
    "smith_waterman", "Smith-Waterman score",
    "the best score of a local alignment of A and B: +2 a match, -1 a mismatch, -1 a gap, never below 0",
    Step(
        "Last row of the score table",
        r"$H_{i,0} = H_{0,j} = 0$, and $H_{i,j} = \max(0,\ H_{i-1,j-1} + s,\ H_{i-1,j} - 1,\ H_{i,j-1} - 1)$ with "
        r"$s = 2$ if $A_i = B_j$ else $s = -1$. Give $[H_{|A|,0}, \dots, H_{|A|,|B|}]$.",
        "def step3(s1, s2):\n" + LOCAL_TABLE + "\n    return row"), Step(
        "Score", r"The NLP score is the largest $H_{i,j}$ anywhere in the table (not only in its last row).",
        "def step4(s1, s2):\n    best = 0\n" + LOCAL_TABLE + "\n        best = max(best, max(row))\n    return best"),
    notes="The score is the maximum over the whole table (the textbook local alignment score); textdistance's "
          "SmithWaterman returns the table's last cell instead, which our step 3 gives as its last number.")


AFFINE_RECURRENCE = (r"With $s = 1$ if $A_i = B_j$ else $-1$, three tables: $D_{0,0} = 0$; $P_{i,0} = -1 - 0.5(i-1)$, "
                    r"$Q_{0,j} = -1 - 0.5(j-1)$ for $i, j \ge 1$; every other border cell is $-\infty$. "
                    r"For $i, j \ge 1$: "
                    r"$D_{i,j} = \max(D_{i-1,j-1}, P_{i-1,j-1}, Q_{i-1,j-1}) + s$, "
                    r"$P_{i,j} = \max(D_{i-1,j} - 1, P_{i-1,j} - 0.5)$, "
                    r"$Q_{i,j} = \max(D_{i,j-1} - 1, Q_{i,j-1} - 0.5)$. ")

AffineGap = of_characters(
    "affine_gap", "affine gap alignment (Gotoh)",
    "the best score of a global alignment of A and B where a gap costs 1 to open and 0.5 for each "
    "further character: +1 a match, -1 a mismatch",
    Step(
        "Last row of D", AFFINE_RECURRENCE + r"Give $[D_{|A|,0}, \dots, D_{|A|,|B|}]$, writing $-\infty$ as null.",
        '''def step3(s1, s2):
    return shown(three_tables(s1, s2)[0])'''), Step(
        "Last row of P", r"Give $[P_{|A|,0}, \dots, P_{|A|,|B|}]$ from the same tables, $-\infty$ as null.",
        '''def step4(s1, s2):
    return shown(three_tables(s1, s2)[1])'''), Step(
        "Last row of Q", r"Give $[Q_{|A|,0}, \dots, Q_{|A|,|B|}]$ from the same tables, $-\infty$ as null.",
        '''def step5(s1, s2):
    return shown(three_tables(s1, s2)[2])'''), Step(
        "Score", r"The NLP score is $\max(D_{|A|,|B|}, P_{|A|,|B|}, Q_{|A|,|B|})$.",
        '''def step6(s3, s4, s5):
    return max(v for v in (s3[-1], s4[-1], s5[-1]) if v is not None)'''),
    helpers='''NEG = float("-inf")


def three_tables(a, b):
    """The three tables' last rows: D ends in a match or mismatch, P in a gap in b, Q in a gap in a."""
    n, m = len(a), len(b)
    d = [[NEG] * (m + 1) for _ in range(n + 1)]
    p = [[NEG] * (m + 1) for _ in range(n + 1)]
    q = [[NEG] * (m + 1) for _ in range(n + 1)]
    d[0][0] = 0
    for i in range(1, n + 1):
        p[i][0] = -1 - 0.5 * (i - 1)
    for j in range(1, m + 1):
        q[0][j] = -1 - 0.5 * (j - 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = 1 if a[i - 1] == b[j - 1] else -1
            d[i][j] = max(d[i - 1][j - 1], p[i - 1][j - 1], q[i - 1][j - 1]) + s
            p[i][j] = max(d[i - 1][j] - 1, p[i - 1][j] - 0.5)
            q[i][j] = max(d[i][j - 1] - 1, q[i][j - 1] - 0.5)
    return d[n], p[n], q[n]


def shown(row):
    return [None if v == NEG else v for v in row]''',
    notes="Minus infinity (an impossible state) is written null in step values.")


CharacterErrorRate = of_characters(
    "cer", "character error rate",
    "the character edits that turn A into B, per character of B",
    EDIT_TABLE, EDITS, RATE,
    direction="distance")
