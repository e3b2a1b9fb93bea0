"""Human verification of benchmark items: is each instruction faithful to its function?

An LLM writes the natural-language side of every item, so a person has to check that following
it gives what the code gives. `ReviewServer` serves one page where reviewers mark each task
"faithful" or "not faithful"; every reviewer's marks live in `<version>/reviews/<reviewer>.json`.
The page is made for hundreds of items: each family's view under its own labels and guidance
(LogicIF's: each step of a description beside the statement it renders, from the describer's own
record), every test case, filters by tier, status and reviewer, a jump to the next unreviewed item
and keys for all of it. `review_stats` measures coverage and agreement between reviewers;
`export_verified` keeps only the tasks enough people reviewed and no one rejected.

The command line is `ifforge review VERSION` (the page; `--stats` for the statistics) and
`ifforge export VERSION --verified-only` (the verified subset).

    items     the rows of a version, one item per task
    marks     reviewer files: read, checked, written
    server    the page over HTTP
    guard     which requests it answers: its own host, marks from its own page
    page      the page rendered from `page.html`
    stats     coverage and Cohen's kappa
    verified  the verified subset and its export
"""

from ifforge.review.items import load_items, read_rows
from ifforge.review.marks import ReviewError, ReviewFileError, all_reviews, load_reviews, save_review
from ifforge.review.page import render_page
from ifforge.review.server import ReviewServer
from ifforge.review.stats import cohen_kappa, format_stats, review_stats
from ifforge.review.verified import export_verified, verified_task_ids

__all__ = ["ReviewError", "ReviewFileError", "ReviewServer", "all_reviews", "cohen_kappa", "export_verified",
           "format_stats", "load_items", "load_reviews", "read_rows", "render_page", "review_stats", "save_review",
           "verified_task_ids"]
