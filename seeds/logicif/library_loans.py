"""A lending library with limited copies, reservations, renewals and capped late fines.

Events are [day, action, member, book_or_amount] with actions borrow / return / renew /
lost / pay. Reporting a borrowed book lost costs 25 and that copy never comes back.
A member owing more than 10, or already holding three books, cannot borrow. With no copy on
the shelf the member is put on the book's waiting list; a returned copy is kept for the
first person waiting. One renewal per loan, only when on time and nobody is waiting.
Returns what each member still owes, plus the number of books still out.
"""


def late_fee(days_late, per_day=1, cap=20, grace=0):
    if days_late <= grace:
        return 0
    return min(cap, (days_late - grace) * per_day)


def library_loans(copies, events, loan_days, fine_per_day):
    shelf = {book: count for book, count in copies}
    waiting = {book: [] for book in shelf}
    loans = {}
    owed = {}
    for day, action, member, target in events:
        owed.setdefault(member, 0)
        if action == "pay":
            owed[member] = max(0, owed[member] - target)
            continue
        if target not in shelf:
            continue
        key = member + "/" + target
        if action == "lost":
            if key in loans:
                del loans[key]
                owed[member] += 25
            continue
        if action == "borrow":
            holding = sum(1 for loan in loans if loan.startswith(member + "/"))
            if key in loans or owed[member] > 10 or holding >= 3:
                continue
            line = waiting[target]
            if shelf[target] == 0 or (line and line[0] != member):
                if member not in line:
                    line.append(member)
                continue
            if line:
                line.pop(0)
            shelf[target] -= 1
            loans[key] = [day + loan_days, False]
        elif action == "return":
            if key not in loans:
                continue
            due, renewed = loans.pop(key)
            grace = 0 if renewed else 1
            owed[member] += late_fee(day - due, per_day=fine_per_day, grace=grace)
            shelf[target] += 1
        elif action == "renew":
            if key not in loans:
                continue
            due, renewed = loans[key]
            if not renewed and day <= due and not waiting[target]:
                loans[key] = [due + loan_days, True]
            elif day > due:
                owed[member] += late_fee(day - due, per_day=fine_per_day, cap=5)
    report = {member: owed[member] for member in sorted(owed)}
    report["books_out"] = len(loans)
    return report


# input: [[["dune", 1]], [[0, "borrow", "ann", "dune"], [1, "borrow", "bob", "dune"], [20, "return", "ann", "dune"], [21, "borrow", "bob", "dune"]], 14, 1]
# input: [[], [], 7, 2]
# input: [[["emma", 2]], [[0, "borrow", "cy", "emma"], [5, "renew", "cy", "emma"], [9, "renew", "cy", "emma"], [30, "return", "cy", "emma"]], 7, 3]
# input: [[["a", 1], ["b", 1], ["c", 1], ["d", 1]], [[0, "borrow", "x", "a"], [0, "borrow", "x", "b"], [0, "borrow", "x", "c"], [0, "borrow", "x", "d"], [1, "borrow", "x", "zzz"], [2, "return", "x", "a"], [3, "borrow", "x", "d"]], 10, 1]
# input: [[["odyssey", 1]], [[0, "borrow", "kim", "odyssey"], [40, "return", "kim", "odyssey"], [41, "borrow", "kim", "odyssey"], [42, "pay", "kim", 15], [43, "borrow", "kim", "odyssey"]], 10, 1]
# input: [[["ulysses", 0]], [[0, "borrow", "lu", "ulysses"], [1, "return", "lu", "ulysses"], [2, "renew", "lu", "ulysses"]], 5, 1]
# input: [[["iliad", 1]], [[0, "borrow", "mo", "iliad"], [2, "borrow", "ned", "iliad"], [3, "renew", "mo", "iliad"], [9, "renew", "mo", "iliad"], [10, "return", "mo", "iliad"], [11, "borrow", "ola", "iliad"], [12, "borrow", "ned", "iliad"]], 4, 2]
# input: [[["faust", 2]], [[0, "borrow", "pia", "faust"], [0, "borrow", "pia", "faust"], [3, "return", "pia", "faust"], [4, "return", "pia", "faust"], [4, "pay", "quin", 5]], 0, 4]
# input: [[["tao", 1]], [[0, "borrow", "rae", "tao"], [1, "borrow", "sam", "tao"], [2, "lost", "rae", "tao"], [3, "lost", "sam", "tao"], [4, "borrow", "sam", "tao"], [5, "pay", "rae", 20], [6, "borrow", "rae", "tao"]], 7, 1]
