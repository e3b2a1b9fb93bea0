"""Word n-gram and word-order rubrics: the BLEU family, NIST, GLEU, the ROUGE family, CIDEr, METEOR,
RIBES, WER, and the character n-gram F-score with its word variant.

Words are what Python's `str.split()` gives, kept exactly (case and punctuation included), unless a
step says otherwise. An n-gram is written as its words joined by one space.
"""

from __future__ import annotations

import string
from dataclasses import replace

from ifforge.families.mcbench.metrics_edit import EDIT_TABLE, EDITS, RATE
from ifforge.families.mcbench.rubric import Metric, Step, declare, register

NGRAMS = '''def ngrams(words, n):
    return [" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]


def counts(items):
    table = {}
    for item in items:
        table[item] = table.get(item, 0) + 1
    return table


def matched(x, y, n):
    """Clipped matches: every n-gram of x counts at most as often as it occurs in y."""
    in_y = counts(ngrams(y, n))
    return sum(min(c, in_y.get(g, 0)) for g, c in counts(ngrams(x, n)).items())'''

WORDS_A = Step("Words of A", "Split A at whitespace; give its words in order.", '''def step1(a):
    return a.split()''')
WORDS_B = Step("Words of B", "Split B at whitespace; give its words in order.", '''def step2(b):
    return b.split()''')
def of_words(metric_id: str, name: str, summary: str, *rest: Step, **more: str) -> type[Metric]:
    """A metric on words whose first steps are the words of A and of B (`rest` goes on from step 3;
    `more`: its direction, helpers, notes), registered."""
    return declare(metric_id, name, "words", summary, (WORDS_A, WORDS_B, *rest), **more)


CLIPPED = Step(
    "Clipped matches", r"For $n = 1..4$: $m_n = \sum_g \min(c_A(g), c_B(g))$ over the distinct n-grams $g$ of A, where "
    r"$c_X(g)$ counts the occurrences of $g$ in X. Give $[m_1, m_2, m_3, m_4]$.",
    '''def step3(s1, s2):
    return [matched(s1, s2, n) for n in range(1, 5)]''')
TOTALS = Step(
    "n-grams of A", r"For $n = 1..4$: $t_n = \max(0, |A| - n + 1)$, the number of n-grams of A (|A| in words). "
    r"Give $[t_1, t_2, t_3, t_4]$.",
    '''def step4(s1):
    return [max(0, len(s1) - n + 1) for n in range(1, 5)]''')
BREVITY = (r"With $c = |A|$ and $r = |B|$ in words: $BP = 1$ if $c > r$, $BP = 0$ if $c = 0$, else "
           r"$BP = e^{1 - r/c}$.")
BREVITY_CODE = '''    c, r = len(s1), len(s2)
    if c > r:
        return 1.0
    return 0.0 if c == 0 else math.exp(1 - r / c)'''
GEOMETRIC = r"$\exp\left(\frac{1}{4}\sum_{n=1}^{4} \ln p_n\right)$"


Bleu = of_words(
    "bleu", "BLEU",
    "the geometric mean of clipped n-gram precisions of A against B (n = 1..4), times a brevity penalty",
    CLIPPED, TOTALS, Step("Brevity penalty", BREVITY, "def step5(s1, s2):\n" + BREVITY_CODE),
    Step("Score", r"If any $m_n = 0$ the NLP score is 0; else with $p_n = m_n / t_n$ it is $BP \cdot $"
                  + GEOMETRIC + ".",
                  '''def step6(s3, s4, s5):
    if min(s3) == 0:
        return 0.0
    return s5 * math.exp(sum(math.log(m / t) for m, t in zip(s3, s4)) / 4)'''),
    helpers="import math\n\n\n" + NGRAMS)

# A smoothed BLEU after its smoothed precisions (step 5): the brevity penalty and the score
SMOOTHED_END = (Step("Brevity penalty", BREVITY, "def step6(s1, s2):\n" + BREVITY_CODE),
                Step("Score", r"If $m_1 = 0$ the NLP score is 0; else it is $BP \cdot $" + GEOMETRIC + ".",
                     '''def step7(s3, s5, s6):
    if s3[0] == 0:
        return 0.0
    return s6 * math.exp(sum(math.log(p) for p in s5) / 4)'''))


SmoothedBleu = of_words(
    "smoothed_bleu", "smoothed BLEU (epsilon smoothing)",
    "the geometric mean of clipped n-gram precisions of A against B (n = 1..4), a precision with no match "
    "counted as 0.1 matches, times a brevity penalty",
    CLIPPED, TOTALS, Step(
        "Smoothed precisions",
        r"$p_n = m_n / t_n$ if $m_n > 0$, else $p_n = 0.1 / \max(1, t_n)$. Give $[p_1, p_2, p_3, p_4]$.",
        '''def step5(s3, s4):
    return [m / t if m > 0 else 0.1 / max(1, t) for m, t in zip(s3, s4)]'''), *SMOOTHED_END,
    helpers="import math\n\n\n" + NGRAMS)


Orange = of_words(
    "orange", "ORANGE's smoothed BLEU (add-one for n >= 2)",
    "the geometric mean of n-gram precisions of A against B (n = 1..4), adding one to the matches and the "
    "total of every order above 1, times a brevity penalty",
    CLIPPED, TOTALS, Step(
        "Smoothed precisions",
        r"$p_1 = m_1 / \max(1, t_1)$ and, for $n = 2..4$, $p_n = (m_n + 1) / (\max(1, t_n) + 1)$. "
        r"Give $[p_1, p_2, p_3, p_4]$.",
        '''def step5(s3, s4):
    return [s3[0] / max(1, s4[0])] + [(m + 1) / (max(1, t) + 1) for m, t in zip(s3[1:], s4[1:])]'''), *SMOOTHED_END,
    helpers="import math\n\n\n" + NGRAMS,
    notes="ORANGE (Lin and Och, 2004) scores sentences with BLEU smoothed by adding one to the counts of orders "
          "2 to 4.")


Nist = of_words(
    "nist", "NIST",
    "n-gram matches of A against B (n = 1..5) weighted by how informative each n-gram of B is, with a "
    "length penalty",
    Step(
        "Information of the matches",
        r"The information of an n-gram $g = w_1..w_n$ of B is $\log_2(c_B(w_1..w_{n-1}) / c_B(g))$ for $n \ge 2$ and "
        r"$\log_2(|B| / c_B(g))$ for $n = 1$, where $c_B$ counts occurrences in B. For $n = 1..5$: "
        r"$I_n = \sum_g \mathrm{info}(g) \cdot \min(c_A(g), c_B(g))$ over the distinct n-grams $g$ of A. "
        r"Give $[I_1, .., I_5]$.",
        '''def step3(s1, s2):
    in_b = {}
    for n in range(1, 6):
        in_b.update(counts(ngrams(s2, n)))

    def info(g):
        words = g.split(" ")
        above = in_b[" ".join(words[:-1])] if len(words) > 1 else len(s2)
        return math.log2(above / in_b[g])

    return [sum(info(g) * min(c, in_b.get(g, 0)) for g, c in counts(ngrams(s1, n)).items() if g in in_b)
            for n in range(1, 6)]'''), Step(
        "n-grams of A", r"For $n = 1..5$: $t_n = \max(0, |A| - n + 1)$. Give $[t_1, .., t_5]$.",
        '''def step4(s1):
    return [max(0, len(s1) - n + 1) for n in range(1, 6)]'''), Step(
        "Information per n-gram", r"$S = \sum_n I_n / t_n$ over the orders with $t_n > 0$.",
        '''def step5(s3, s4):
    return sum(i / t for i, t in zip(s3, s4) if t > 0)'''), Step(
        "Length penalty",
        r"With $\rho = |A| / |B|$: if $0 < \rho < 1$, $P = \exp(\beta \ln^2 \rho)$ with "
        r"$\beta = \ln 0.5 / \ln^2 1.5$; else $P = \min(\rho, 1)$.",
        '''def step6(s1, s2):
    ratio = len(s1) / len(s2)
    if 0 < ratio < 1:
        beta = math.log(0.5) / math.log(1.5) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return min(ratio, 1.0)'''), Step(
        "Score", r"The NLP score is $S \cdot P$.",
        '''def step7(s5, s6):
    return s5 * s6'''),
    helpers="import math\n\n\n" + NGRAMS)


Gleu = of_words(
    "gleu", "GLEU (Google BLEU)",
    "the n-gram matches of A and B (n = 1..4 together) over the larger of their n-gram totals",
    Step(
        "n-grams of A", r"$T_A = \sum_{n=1}^{4} \max(0, |A| - n + 1)$.",
        '''def step3(s1):
    return sum(max(0, len(s1) - n + 1) for n in range(1, 5))'''), Step(
        "n-grams of B", r"$T_B = \sum_{n=1}^{4} \max(0, |B| - n + 1)$.",
        '''def step4(s2):
    return sum(max(0, len(s2) - n + 1) for n in range(1, 5))'''), Step(
        "Matches", r"$M = \sum_{n=1}^{4} \sum_g \min(c_A(g), c_B(g))$ over the distinct n-grams $g$ of A.",
        '''def step5(s1, s2):
    return sum(matched(s1, s2, n) for n in range(1, 5))'''), Step(
        "Score", r"The NLP score is $M / \max(T_A, T_B)$ (0 when both are 0).",
        '''def step6(s3, s4, s5):
    total = max(s3, s4)
    return 0.0 if total == 0 else s5 / total'''),
    helpers=NGRAMS)


LCS = Step("Longest common subsequence",
           r"$L$ is the length of the longest sequence of words that occurs in both A and B in the same order "
           r"(not necessarily adjacent): $C_{i,j} = C_{i-1,j-1} + 1$ if $A_i = B_j$ else $\max(C_{i-1,j}, C_{i,j-1})$.",
           '''def step3(s1, s2):
    row = [0] * (len(s2) + 1)
    for x in s1:
        new = [0]
        for j, y in enumerate(s2, 1):
            new.append(row[j - 1] + 1 if x == y else max(row[j], new[j - 1]))
        row = new
    return row[-1]''')
F1 = Step("F-measure", r"The NLP score is $2PR / (P + R)$ (0 when $P + R = 0$).", '''def step5(s4):
    p, r = s4
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)''')


RougeL = of_words(
    "rouge_l", "ROUGE-L",
    "the F-measure of the longest common word subsequence of A and B",
    LCS, Step(
        "Precision and recall", r"$P = L / |A|$, $R = L / |B|$. Give $[P, R]$.",
        '''def step4(s1, s2, s3):
    return [s3 / len(s1), s3 / len(s2)]'''), F1)


RougeW = of_words(
    "rouge_w", "ROUGE-W",
    "the F-measure of a longest common word subsequence that rewards consecutive runs (weight f(k) = k^2)",
    Step(
        "Weighted common subsequence",
        r"With $f(k) = k^2$, fill $C$ (score) and $W$ (length of the run ending here), both 0 outside the strings: "
        r"if $A_i = B_j$, $k = W_{i-1,j-1}$, $C_{i,j} = C_{i-1,j-1} + f(k+1) - f(k)$, $W_{i,j} = k + 1$; else "
        r"$C_{i,j} = \max(C_{i-1,j}, C_{i,j-1})$ and $W_{i,j} = 0$. Give $C_{|A|,|B|}$.",
        '''def step3(s1, s2):
    c = [0] * (len(s2) + 1)
    w = [0] * (len(s2) + 1)
    for x in s1:
        new_c, new_w = [0], [0]
        for j, y in enumerate(s2, 1):
            if x == y:
                k = w[j - 1]
                new_c.append(c[j - 1] + (k + 1) ** 2 - k ** 2)
                new_w.append(k + 1)
            else:
                new_c.append(max(c[j], new_c[j - 1]))
                new_w.append(0)
        c, w = new_c, new_w
    return c[-1]'''), Step(
        "Precision and recall", r"$P = \sqrt{C / |A|^2}$, $R = \sqrt{C / |B|^2}$. Give $[P, R]$.",
        '''def step4(s1, s2, s3):
    return [(s3 / len(s1) ** 2) ** 0.5, (s3 / len(s2) ** 2) ** 0.5]'''), F1,
    notes="The weighting function is f(k) = k^2 (Lin's example), so f^-1 is the square root; ROUGE-1.5.5's "
          "default is k^1.2.")


RougeS = of_words(
    "rouge_s", "ROUGE-S (skip-bigrams, any gap)",
    "the F-measure of the ordered word pairs (any gap between them) that A and B share",
    Step(
        "Shared skip-bigrams",
        r"A skip-bigram of X is a pair $(X_i, X_j)$ with $i < j$. $M = \sum_g \min(c_A(g), c_B(g))$ over the distinct "
        r"skip-bigrams $g$ of A ($c_X(g)$ counts the occurrences of $g$ in X).",
        '''def step3(s1, s2):
    in_b = skip_bigrams(s2)
    return sum(min(c, in_b.get(g, 0)) for g, c in skip_bigrams(s1).items())'''), Step(
        "Precision and recall",
        r"$P = M / \binom{|A|}{2}$, $R = M / \binom{|B|}{2}$ (0 when the count below is 0). Give $[P, R]$.",
        '''def step4(s1, s2, s3):
    pairs_a = len(s1) * (len(s1) - 1) // 2
    pairs_b = len(s2) * (len(s2) - 1) // 2
    return [s3 / pairs_a if pairs_a else 0.0, s3 / pairs_b if pairs_b else 0.0]'''), F1,
    helpers='''def skip_bigrams(words):
    table = {}
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            pair = words[i] + " " + words[j]
            table[pair] = table.get(pair, 0) + 1
    return table''')


Cider = of_words(
    "cider", "CIDEr",
    "ten times the mean, over n = 1..4, of the cosine of A's and B's tf-idf n-gram vectors",
    Step(
        "Shared n-grams", r"For $n = 1..4$, the number of distinct n-grams in both A and B. Give the list of 4.",
        '''def step3(s1, s2):
    return [len(set(ngrams(s1, n)) & set(ngrams(s2, n))) for n in range(1, 5)]'''), Step(
        "Cosines",
        r"For each $n$: $df(g)$ is 2 for an n-gram in both sentences, else 1; $v_X(g) = c_X(g) \ln(3 / df(g))$. "
        r"$\cos_n = \frac{v_A \cdot v_B}{\|v_A\| \|v_B\|}$ (0 when a norm is 0). Give $[\cos_1, .., \cos_4]$.",
        '''def step4(s1, s2):
    cosines = []
    for n in range(1, 5):
        x, y = counts(ngrams(s1, n)), counts(ngrams(s2, n))
        idf = {g: math.log(3 / (2 if g in x and g in y else 1)) for g in set(x) | set(y)}
        dot = sum(c * idf[g] * y[g] * idf[g] for g, c in x.items() if g in y)
        norm_x = math.sqrt(sum((c * idf[g]) ** 2 for g, c in x.items()))
        norm_y = math.sqrt(sum((c * idf[g]) ** 2 for g, c in y.items()))
        cosines.append(dot / (norm_x * norm_y) if norm_x and norm_y else 0.0)
    return cosines'''), Step(
        "Score", r"The NLP score is $10 \cdot \frac{1}{4} \sum_n \cos_n$.",
        '''def step5(s4):
    return 10 * sum(s4) / 4'''),
    helpers="import math\n\n\n" + NGRAMS,
    notes="CIDEr's idf needs a corpus; here the corpus is the pair itself (N = 2) with a smoothed idf, "
          "ln(3 / df), so n-grams in both sentences keep a weight. No length penalty (CIDEr, not CIDEr-D).")


@register
class Meteor(Metric):
    id, name, unit = "meteor", "METEOR (exact matches only)", "words"
    summary = "a recall-weighted F-measure of aligned words, lowered when the aligned words are fragmented"
    notes = ("Exact word matches only (no stemming, no synonyms: no WordNet at run time); the alignment is the "
             "greedy one NLTK uses: A's words from last to first, each to the last unused equal word of B.")
    steps = (Step("Words of A", "Split A at whitespace and lowercase every word; give them in order.",
                  '''def step1(a):
    return [w.lower() for w in a.split()]'''),
             Step("Words of B", "Split B at whitespace and lowercase every word; give them in order.",
                  '''def step2(b):
    return [w.lower() for w in b.split()]'''), Step(
        "Alignment",
        r"Go through the words of A from the last to the first; each is aligned to the last word of B equal to it "
        r"that is not aligned yet, if any. Give the aligned pairs $[i, j]$ (positions from 0) sorted by $i$.",
        '''def step3(s1, s2):
    free = {}
    for j, w in enumerate(s2):
        free.setdefault(w, []).append(j)
    pairs = []
    for i in range(len(s1) - 1, -1, -1):
        if free.get(s1[i]):
            pairs.append([i, free[s1[i]].pop()])
    return sorted(pairs)'''), Step(
        "Precision and recall", r"With $m$ aligned pairs: $P = m / |A|$, $R = m / |B|$. Give $[P, R]$.",
        '''def step4(s1, s2, s3):
    return [len(s3) / len(s1), len(s3) / len(s2)]'''), Step(
        "Weighted F-mean", r"$F = \frac{PR}{0.9P + 0.1R}$ (0 when $m = 0$).",
        '''def step5(s3, s4):
    p, r = s4
    return 0.0 if not s3 else p * r / (0.9 * p + 0.1 * r)'''), Step(
        "Chunks",
        r"Going through the sorted pairs, a new chunk starts at every pair that is not $[i+1, j+1]$ of the pair "
        r"before it. $ch$ is the number of chunks (0 when $m = 0$).",
        '''def step6(s3):
    return sum(1 for k, (i, j) in enumerate(s3) if k == 0 or s3[k - 1] != [i - 1, j - 1])'''), Step(
        "Score", r"The NLP score is $F \cdot (1 - 0.5\,(ch / m)^3)$ (0 when $m = 0$).",
        '''def step7(s3, s5, s6):
    return 0.0 if not s3 else s5 * (1 - 0.5 * (s6 / len(s3)) ** 3)'''))


Ribes = of_words(
    "ribes", "RIBES",
    "how much the word order of A agrees with B's (a rank correlation), times unigram precision and a "
    "brevity penalty",
    Step(
        "Word order",
        r"For each word $A_i$ of A (from 0) that occurs in B: if it occurs exactly once in A and once in B, take its "
        r"position in B. Otherwise, for $w = 1, 2, \dots$ while $w < \min(\max(i, |A| - i + 1), |B|)$: if "
        r"$i + w < |A|$ and the words $A_i..A_{i+w}$ occur exactly once in A and once in B (as a run, overlaps "
        r"counted), take the position in B where that run starts, and stop; else if $w \le i$ and "
        r"$A_{i-w}..A_i$ occur exactly once in A and once in B, take the position in B of that run's last word, and "
        r"stop. A word that finds nothing is left out. Give the positions taken, in the order of A.",
        '''def step3(s1, s2):
    order = []
    for i, word in enumerate(s1):
        if word not in s2:
            continue
        if s1.count(word) == 1 and s2.count(word) == 1:
            order.append(s2.index(word))
            continue
        for w in range(1, min(max(i, len(s1) - i + 1), len(s2))):
            if i + w < len(s1):
                gram = s1[i:i + w + 1]
                in_b, start = occurrences(s2, gram)
                if in_b == 1 and occurrences(s1, gram)[0] == 1:
                    order.append(start)
                    break
            if w <= i:
                gram = s1[i - w:i + 1]
                in_b, start = occurrences(s2, gram)
                if in_b == 1 and occurrences(s1, gram)[0] == 1:
                    order.append(start + w)
                    break
    return order'''), Step(
        "Normalised rank correlation",
        r"With $k$ positions: if $k < 2$, $NKT = 0$; else, with $u$ the number of pairs of positions (earlier, later "
        r"in the list) where the earlier is smaller, $\tau = 2u / \binom{k}{2} - 1$ and $NKT = (\tau + 1) / 2$.",
        '''def step4(s3):
    k = len(s3)
    if k < 2:
        return 0.0
    up = sum(1 for x in range(k) for y in range(x + 1, k) if s3[x] < s3[y])
    tau = 2 * up / (k * (k - 1) / 2) - 1
    return (tau + 1) / 2'''), Step(
        "Unigram precision", r"$p = k / |A|$.",
        '''def step5(s1, s3):
    return len(s3) / len(s1)'''), Step(
        "Brevity penalty", r"$BP = \min(1, e^{1 - |B| / |A|})$.",
        '''def step6(s1, s2):
    return min(1.0, math.exp(1 - len(s2) / len(s1)))'''), Step(
        "Score", r"The NLP score is $NKT \cdot p^{0.25} \cdot BP^{0.1}$.",
        '''def step7(s4, s5, s6):
    return s4 * s5 ** 0.25 * s6 ** 0.1'''),
    helpers='''import math


def occurrences(words, gram):
    """How often `gram` (a list of words) occurs in `words`, overlaps included, and where first."""
    found = [i for i in range(len(words) - len(gram) + 1) if words[i:i + len(gram)] == gram]
    return len(found), (found[0] if found else -1)''')


WordErrorRate = of_words(
    "wer", "word error rate",
    "the word edits that turn A into B, per word of B",
    replace(EDIT_TABLE, requirement="Over words: " + EDIT_TABLE.requirement), EDITS, RATE,
    direction="distance")


FSCORE_HELPERS = '''def grams(text, n):
    return [text[i:i + n] for i in range(len(text) - n + 1)]


def tally(items):
    table = {}
    for item in items:
        table[item] = table.get(item, 0) + 1
    return table'''

AVERAGE = Step(
    "Average precision and recall",
    r"Over the orders $n$ where both $t^A_n > 0$ and $t^B_n > 0$: $P = \mathrm{mean}(m_n / t^A_n)$, "
    r"$R = \mathrm{mean}(m_n / t^B_n)$ ($P = R = 0$ when there is no such order). Give $[P, R]$.",
    '''def step6(s3, s4, s5):
    used = [(m, x, y) for m, x, y in zip(s5, s3, s4) if x > 0 and y > 0]
    if not used:
        return [0.0, 0.0]
    return [sum(m / x for m, x, _ in used) / len(used), sum(m / y for m, _, y in used) / len(used)]''')
F_BETA = Step("F-score", r"The NLP score is $\frac{5PR}{4P + R}$ (the F-score with $\beta = 2$; 0 when $P + R = 0$).",
              '''def step7(s6):
    p, r = s6
    return 0.0 if p + r == 0 else 5 * p * r / (4 * p + r)''')


@register
class ChrF(Metric):
    id, name, unit = "chrf", "chrF", "characters"
    summary = "an F-score (beta = 2) of the character n-grams (n = 1..6) of A and B, whitespace removed"
    notes = "On a 0 to 1 scale (sacrebleu reports 0 to 100)."
    helpers = FSCORE_HELPERS
    steps = (Step("A without whitespace", r"Remove every whitespace character from A; call the result $A'$.",
                  '''def step1(a):
    return "".join(a.split())'''),
             Step("B without whitespace", r"Remove every whitespace character from B; call the result $B'$.",
                                         '''def step2(b):
    return "".join(b.split())'''), Step(
        "n-grams of A", r"For $n = 1..6$: $t^A_n = \max(0, |A'| - n + 1)$ character n-grams. Give the list of 6.",
        '''def step3(s1):
    return [max(0, len(s1) - n + 1) for n in range(1, 7)]'''), Step(
        "n-grams of B", r"For $n = 1..6$: $t^B_n = \max(0, |B'| - n + 1)$. Give the list of 6.",
        '''def step4(s2):
    return [max(0, len(s2) - n + 1) for n in range(1, 7)]'''), Step(
        "Matches", r"For $n = 1..6$: $m_n = \sum_g \min(c_{A'}(g), c_{B'}(g))$ over the distinct character n-grams "
        r"$g$ of $A'$. "
        r"Give the list of 6.",
        '''def step5(s1, s2):
    out = []
    for n in range(1, 7):
        in_b = tally(grams(s2, n))
        out.append(sum(min(c, in_b.get(g, 0)) for g, c in tally(grams(s1, n)).items()))
    return out'''), AVERAGE, F_BETA)


PUNCTUATION = string.punctuation  # !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~


@register
class WordF(Metric):
    id, name, unit = "wordf", "word n-gram F-score (wordF)", "words"
    summary = "an F-score (beta = 2) of the word unigrams and bigrams of A and B, punctuation split off word ends"
    notes = "The word part of chrF++ on its own (sacrebleu CHRF with char_order=0, word_order=2), on a 0 to 1 scale."
    helpers = FSCORE_HELPERS + f'''


PUNCTUATION = {PUNCTUATION!r}


def words(text):
    out = []
    for w in text.split():
        if len(w) > 1 and w[-1] in PUNCTUATION:
            out += [w[:-1], w[-1]]
        elif len(w) > 1 and w[0] in PUNCTUATION:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out'''
    marks = string.punctuation.replace("{", "{{").replace("}", "}}")  # literal braces survive str.format
    split = (r"Split {x} at whitespace; a word longer than one character that ends with an ASCII punctuation mark "
             f"(one of {marks}) becomes the word without it and the mark; otherwise one that starts with such a mark "
             r"becomes the mark and the rest. Give the words in order.")
    steps = (Step("Words of A", split.format(x="A"), '''def step1(a):
    return words(a)'''), Step("Words of B", split.format(x="B"), '''def step2(b):
    return words(b)'''), Step(
        "n-grams of A", r"For $n = 1, 2$: $t^A_n = \max(0, |A| - n + 1)$ word n-grams, $|A|$ being the number of "
        r"words of step 1. Give $[t^A_1, t^A_2]$.",
        '''def step3(s1):
    return [max(0, len(s1) - n + 1) for n in (1, 2)]'''), Step(
        "n-grams of B", r"For $n = 1, 2$: $t^B_n = \max(0, |B| - n + 1)$, $|B|$ being the number of words of step 2. "
        r"Give $[t^B_1, t^B_2]$.",
        '''def step4(s2):
    return [max(0, len(s2) - n + 1) for n in (1, 2)]'''), Step(
        "Matches", r"For $n = 1, 2$: $m_n = \sum_g \min(c_A(g), c_B(g))$ over the distinct word n-grams $g$ of A. "
        r"Give $[m_1, m_2]$.",
        '''def step5(s1, s2):
    out = []
    for n in (1, 2):
        in_b = tally([" ".join(s2[i:i + n]) for i in range(len(s2) - n + 1)])
        here = tally([" ".join(s1[i:i + n]) for i in range(len(s1) - n + 1)])
        out.append(sum(min(c, in_b.get(g, 0)) for g, c in here.items()))
    return out'''), AVERAGE, F_BETA)
