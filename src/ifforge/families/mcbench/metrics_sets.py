"""Word-set rubrics: overlap coefficients of the words of A and B, and Monge-Elkan over words.

Words are what Python's `str.split()` gives: maximal runs of characters that are not whitespace,
kept exactly (case and punctuation included).
"""

from __future__ import annotations

from ifforge.families.mcbench.rubric import Metric, Step, declare
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


def of_shared_words(metric_id: str, name: str, summary: str, *rest: Step) -> type[Metric]:
    """A metric whose first steps are the distinct words of A, of B, and those they share (`rest`
    goes on from step 4), registered."""
    return declare(metric_id, name, "words", summary, (SET_A, SET_B, SHARED, *rest))


Jaccard = of_shared_words(
    "jaccard", "Jaccard index", "the share of all distinct words that A and B have in common", Step(
        "All words", r"$U = S_A \cup S_B$: the words in either set (in any order).",
        '''def step4(s1, s2):
    return sorted(set(s1) | set(s2))''', unordered=True), Step(
        "Index", r"The NLP score is $|I| / |U|$ (1 when $U$ is empty).",
        '''def step5(s3, s4):
    return 1.0 if not s4 else len(s3) / len(s4)'''))
Dice = of_shared_words(
    "dice", "Dice-Sorensen coefficient", "twice the shared distinct words over the distinct words of A plus those of B",
    Step("Coefficient", r"The NLP score is $2|I| / (|S_A| + |S_B|)$.", '''def step4(s1, s2, s3):
    return 2 * len(s3) / (len(s1) + len(s2))'''))
Overlap = of_shared_words(
    "overlap", "overlap coefficient", "the shared distinct words over the distinct words of the smaller side",
    Step("Coefficient", r"The NLP score is $|I| / \min(|S_A|, |S_B|)$.", '''def step4(s1, s2, s3):
    return len(s3) / min(len(s1), len(s2))'''))
Tversky = of_shared_words(
    "tversky", "Tversky index",
    "an asymmetric share of shared distinct words, weighing A's own words 0.8 and B's own words 0.2", Step(
        "Only in A", r"$|S_A \setminus S_B|$: how many words of $S_A$ are not in $S_B$.",
        '''def step4(s1, s2):
    return len(set(s1) - set(s2))'''), Step(
        "Only in B", r"$|S_B \setminus S_A|$: how many words of $S_B$ are not in $S_A$.",
        '''def step5(s1, s2):
    return len(set(s2) - set(s1))'''), Step(
        "Index", r"The NLP score is $\frac{|I|}{|I| + 0.8\,|S_A \setminus S_B| + 0.2\,|S_B \setminus S_A|}$.",
        '''def step6(s3, s4, s5):
    return len(s3) / (len(s3) + 0.8 * s4 + 0.2 * s5)'''))


Tanimoto = declare(
    "tanimoto", "Tanimoto coefficient", "words",
    "the overlap of the word-count vectors of A and B, relative to their squared lengths",
    (Step(
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
    return s3 / (s4[0] + s4[1] - s3)''')),
    notes="This is the Tanimoto coefficient of word-count vectors, A.B / (|A|^2 + |B|^2 - A.B); on 0/1 vectors it "
          "equals the Jaccard index. textdistance's Tanimoto is log2 of a Jaccard index, another quantity.")


MongeElkan = declare(
    "monge_elkan", "Monge-Elkan similarity", "words",
    "for each word of A the best character similarity to any word of B, averaged",
    (Step(
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
    return sum(s3) / len(s3)''')),
    helpers=JARO_MATCH,
    notes="The inner similarity is the Jaro similarity of two words. textdistance's MongeElkan divides the sum "
          "by the number of words of A twice (its value is ours divided by that number); ours is the mean.")
