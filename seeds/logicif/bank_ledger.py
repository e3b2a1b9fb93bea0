"""A small bank ledger: deposits, withdrawals, transfers, freezes and monthly interest.

Accounts may dip below zero down to their overdraft limit; crossing from non-negative to
negative costs a fee. Frozen accounts cannot send money. Rejected operations are counted.
"""


def overdraft_room(balance, limit):
    return balance + max(0, limit)


def debit(balances, name, amount, limits, fee=5):
    balance = balances[name]
    if amount <= 0 or amount > overdraft_room(balance, limits.get(name, 0)):
        return False
    new_balance = balance - amount
    if balance >= 0 and new_balance < 0:
        new_balance -= fee
    balances[name] = new_balance
    return True


def bank_ledger(opening, overdraft_limits, operations):
    balances = {name: amount for name, amount in opening}
    limits = {name: limit for name, limit in overdraft_limits}
    frozen = set()
    rejected = 0
    for operation in operations:
        kind = operation[0]
        if kind == "deposit":
            name, amount = operation[1], operation[2]
            if amount <= 0:
                rejected += 1
            else:
                balances[name] = balances.get(name, 0) + amount
            continue
        if kind == "withdraw":
            name, amount = operation[1], operation[2]
            if name not in balances or name in frozen:
                rejected += 1
            elif not debit(balances, name, amount, limits):
                rejected += 1
            continue
        if kind == "transfer":
            source, target, amount = operation[1], operation[2], operation[3]
            if source not in balances or target not in balances:
                rejected += 1
            elif source in frozen or source == target:
                rejected += 1
            elif debit(balances, source, amount, limits, fee=2):
                balances[target] += amount
                if target in frozen and balances[target] > 0:
                    frozen.discard(target)
            else:
                rejected += 1
            continue
        if kind == "freeze":
            if operation[1] in balances:
                frozen.add(operation[1])
            else:
                rejected += 1
            continue
        if kind != "interest":
            rejected += 1
            continue
        rate = operation[1]
        for name in sorted(balances):
            if balances[name] > 0:
                balances[name] += balances[name] * rate // 100
            elif balances[name] < 0 and name not in frozen:
                balances[name] -= 1
    ledger = {name: balances[name] for name in sorted(balances)}
    ledger["rejected"] = rejected
    return ledger


# input: [[["ann", 100], ["bob", 20]], [["bob", 50]], [["withdraw", "bob", 40], ["transfer", "ann", "bob", 30], ["interest", 10]]]
# input: [[], [], []]
# input: [[["ann", 0]], [], [["withdraw", "ann", 1], ["deposit", "ann", 0], ["deposit", "cat", 15], ["audit", "ann"]]]
# input: [[["ann", 50], ["bob", 5]], [["ann", 100]], [["freeze", "bob"], ["transfer", "bob", "ann", 5], ["transfer", "ann", "bob", 120], ["withdraw", "bob", 10]]]
# input: [[["dee", 300]], [], [["interest", 5], ["interest", 5], ["transfer", "dee", "dee", 10], ["freeze", "zed"]]]
# input: [[["ann", 10], ["bob", -5]], [["bob", 20], ["ann", 30]], [["interest", 50], ["withdraw", "ann", 35], ["withdraw", "bob", 30], ["deposit", "bob", 3]]]
# input: [[["eve", 40], ["fay", 40]], [["eve", 10]], [["transfer", "eve", "fay", 45], ["transfer", "fay", "gus", 5], ["freeze", "eve"], ["withdraw", "eve", 1], ["interest", 20]]]
# input: [[["ann", 1]], [["ann", 1000]], [["withdraw", "ann", 500], ["withdraw", "ann", 500], ["deposit", "ann", 250]]]
