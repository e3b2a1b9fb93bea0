"""An open-outcry auction run in rounds.

Each round lists [bidder, amount] bids. A bid counts only if it beats the standing price by
at least the minimum increment (the first bid must reach the opening price) and does not
come from the current leader. The best valid bid of a round becomes the standing bid; the
earlier bid wins a tie. The auction stops after a round without any valid bid. Returns
"winner@price#round" (the round, counted from 1, in which the winning bid was made), or
"no sale" when nobody bid validly or the final price is below the reserve.
"""


def best_valid_bid(bids, standing, increment, opening):
    best = None
    for bidder, amount in bids:
        floor = opening if standing is None else standing[1] + increment
        is_leader = standing is not None and bidder == standing[0]
        if not is_leader and amount >= floor and (best is None or amount > best[1]):
            best = [bidder, amount]
    return best


def auction_rounds(rounds, opening, increment, reserve):
    standing = None
    winning_round = 0
    for number, bids in enumerate(rounds, start=1):
        leader = best_valid_bid(bids, standing, increment, opening)
        if leader is None:
            break
        standing = leader
        winning_round = number
    if standing is None or standing[1] < reserve:
        return "no sale"
    winner, price = standing
    return winner + "@" + str(price) + "#" + str(winning_round)


# input: [[[["ann", 50], ["bob", 60]], [["ann", 70]], [["bob", 71]]], 40, 5, 65]
# input: [[], 10, 1, 0]
# input: [[[["cy", 5]]], 10, 1, 0]
# input: [[[["dee", 100], ["eve", 100]], [["eve", 150], ["dee", 160]], [["eve", 165]]], 100, 10, 120]
# input: [[[["fay", 30]], [], [["gus", 500]]], 20, 5, 0]
# input: [[[["hal", 10]], [["ivy", 12]], [["hal", 14]]], 10, 0, 15]
# input: [[[["jo", 20], ["kai", 25]], [["kai", 40], ["jo", 30]], [["kai", 36], ["jo", 45]]], 20, 3, 30]
# input: [[[["lee", 0]]], 0, 0, 0]
