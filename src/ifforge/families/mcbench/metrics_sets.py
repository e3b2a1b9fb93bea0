"""Word-set rubrics: overlap coefficients of the words of A and B, and Monge-Elkan over words.

Words are what Python's `str.split()` gives: maximal runs of characters that are not whitespace,
kept exactly (case and punctuation included).
"""

from __future__ import annotations

from ifforge.families.mcbench.rubric import Metric, Step, register
from ifforge.families.mcbench.metrics_edit import JARO_MATCH

SET_A = Step("Words of A", "Split A at whitespace; give the distinct words (a set, in any order).",
             '''def step1(a):
    return sorted(set(a.split()))''', unordered=True)
SET_B = Step("Words of B", "Split B at whitespace; give the distinct words (a set, in any order).",
             '''def step2(b):
    return sorted(set(b.split()))''', unordered=True)
SHARED = Step("Shared words", r"$I = S_A \cap S_B$: the words in both sets (in any order).",
              '''def step3(s1, s2):
    return sorted(set(s1) & set(s2))''', unordered=True)


@register
class Jaccard(Metric):
    id, name, unit = "jaccard", "Jaccard index", "words"
    summary = "the share of all distinct words that A and B have in common"
    steps = (SET_A, SET_B, SHARED, Step(
        "All words", r"$U = S_A \cup S_B$: the words in either set (in any order).",
        '''def step4(s1, s2):
    return sorted(set(s1) | set(s2))''', unordered=True), Step(
        "Index", r"The NLP score is $|I| / |U|$ (1 when $U$ is empty).",
        '''def step5(s3, s4):
    return 1.0 if not s4 else len(s3) / len(s4)'''))


@register
class Dice(Metric):
    id, name, unit = "dice", "Dice-Sorensen coefficient", "words"
    summary = "twice the shared distinct words over the distinct words of A plus those of B"
    steps = (SET_A, SET_B, SHARED, Step(
        "Coefficient", r"The NLP score is $2|I| / (|S_A| + |S_B|)$.",
        '''def step4(s1, s2, s3):
    return 2 * len(s3) / (len(s1) + len(s2))'''))


@register
class Overlap(Metric):
    id, name, unit = "overlap", "overlap coefficient", "words"
    summary = "the shared distinct words over the distinct words of the smaller side"
    steps = (SET_A, SET_B, SHARED, Step(
        "Coefficient", r"The NLP score is $|I| / \min(|S_A|, |S_B|)$.",
        '''def step4(s1, s2, s3):
    return len(s3) / min(len(s1), len(s2))'''))


@register
class Tversky(Metric):
    id, name, unit = "tversky", "Tversky index", "words"
    summary = "an asymmetric share of shared distinct words, weighing A's own words 0.8 and B's own words 0.2"
    steps = (SET_A, SET_B, SHARED, Step(
        "Only in A", r"$|S_A \setminus S_B|$: how many words of $S_A$ are not in $S_B$.",
        '''def step4(s1, s2):
    return len(set(s1) - set(s2))'''), Step(
        "Only in B", r"$|S_B \setminus S_A|$: how many words of $S_B$ are not in $S_A$.",
        '''def step5(s1, s2):
    return len(set(s2) - set(s1))'''), Step(
        "Index", r"The NLP score is $\frac{|I|}{|I| + 0.8\,|S_A \setminus S_B| + 0.2\,|S_B \setminus S_A|}$.",
        '''def step6(s3, s4, s5):
    return len(s3) / (len(s3) + 0.8 * s4 + 0.2 * s5)'''))


@register
class Tanimoto(Metric):
    id, name, unit = "tanimoto", "Tanimoto coefficient", "words"
    summary = "the overlap of the word-count vectors of A and B, relative to their squared lengths"
    notes = ("This is the Tanimoto coefficient of word-count vectors, A.B / (|A|^2 + |B|^2 - A.B); on 0/1 vectors it "
             "equals the Jaccard index. textdistance's Tanimoto is log2 of a Jaccard index, another quantity.")
    steps = (Step(
        "Word counts of A", "Split A at whitespace and count each word. Give an object from word to count.",
        '''def step1(a):
    counts = {}
    for w in a.split():
        counts[w] = counts.get(w, 0) + 1
    return counts'''), Step(
        "Word counts of B", "Split B at whitespace and count each word. Give an object from word to count.",
        '''def step2(b):
    counts = {}
    for w in b.split():
        counts[w] = counts.get(w, 0) + 1
    return counts'''), Step(
        "Dot product", r"$x \cdot y = \sum_w n_A(w)\, n_B(w)$.",
        '''def step3(s1, s2):
    return sum(n * s2.get(w, 0) for w, n in s1.items())'''), Step(
        "Squared lengths", r"Give $[\sum_w n_A(w)^2, \sum_w n_B(w)^2]$.",
        '''def step4(s1, s2):
    return [sum(n * n for n in s1.values()), sum(n * n for n in s2.values())]'''), Step(
        "Coefficient", r"The NLP score is $\frac{x \cdot y}{\|x\|^2 + \|y\|^2 - x \cdot y}$.",
        '''def step5(s3, s4):
    return s3 / (s4[0] + s4[1] - s3)'''))


@register
class MongeElkan(Metric):
    id, name, unit = "monge_elkan", "Monge-Elkan similarity", "words"
    summary = "for each word of A the best character similarity to any word of B, averaged"
    helpers = JARO_MATCH
    notes = ("The inner similarity is the Jaro similarity of two words. textdistance's MongeElkan divides the sum "
             "by the number of words of A twice (its value is ours divided by that number); ours is the mean.")
    steps = (Step(
        "Words of A", "Split A at whitespace; give its words in order.",
        '''def step1(a):
    return a.split()'''), Step(
        "Words of B", "Split B at whitespace; give its words in order.",
        '''def step2(b):
    return b.split()'''), Step(
        "Best match of each word of A",
        r"For two words $x, y$, $J(x, y)$ is: with $w = \max(0, \lfloor \max(|x|, |y|)/2 \rfloor - 1)$, go through "
        r"$x$ left to right; character $x_i$ (from 0) matches the leftmost unmatched $y_j = x_i$ with $|i - j| \le w$. "
        r"With $m$ matches and $t$ half the positions where the matched characters of $x$ (in $x$'s order) and of $y$ "
        r"(in $y$'s order) differ, rounded down: $J = 0$ if $m = 0$, else "
        r"$\frac{1}{3}(\frac{m}{|x|} + \frac{m}{|y|} + \frac{m-t}{m})$. For each word $x$ of A in order, give "
        r"$\max_y J(x, y)$ over the words $y$ of B.",
        '''def step3(s1, s2):
    return [max(window_similarity(x, y) for y in s2) for x in s1]'''), Step(
        "Similarity", r"The NLP score is the mean of those values.",
        '''def step4(s3):
    return sum(s3) / len(s3)'''))
