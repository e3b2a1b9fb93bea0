"""A store loyalty card: purchases earn points, points are redeemed in blocks of 100.

Every full 10 spent earns base_rate points times the tier multiplier (bronze 1, silver 2,
gold 3). Lifetime spend of 500 reaches silver (+100 bonus points) and 1500 reaches gold
(+250); tiers never go down. A redemption is rounded down to whole hundreds and refused if
the card does not hold that many points; gold members get a tenth of it back as points.
A returned purchase lowers lifetime spend and takes back the points it earned at today's
multiplier, never below zero. Unknown kinds and non-positive values are ignored.
Returns the final points balance.
"""


def loyalty_points(transactions, base_rate):
    points = 0
    lifetime = 0
    tier = 0
    multipliers = [1, 2, 3]
    thresholds = [(500, 100), (1500, 250)]

    def promote():
        nonlocal tier, points
        while tier < len(thresholds) and lifetime >= thresholds[tier][0]:
            points += thresholds[tier][1]
            tier += 1

    def earned(amount):
        return (amount // 10) * base_rate * multipliers[tier]

    for kind, value in transactions:
        if value <= 0:
            continue
        if kind == "buy":
            points += earned(value)
            lifetime += value
            promote()
            continue
        if kind == "return":
            lifetime = max(0, lifetime - value)
            points = max(0, points - earned(value))
            continue
        if kind != "redeem":
            continue
        block = value // 100 * 100
        if block <= points:
            points -= block
            if tier == len(thresholds):
                points += block // 10
    return points


# input: [[["buy", 120], ["buy", 400], ["redeem", 250]], 1]
# input: [[], 1]
# input: [[["redeem", 100], ["buy", 0], ["return", 50]], 2]
# input: [[["buy", 1000], ["buy", 1000], ["buy", 10], ["redeem", 300]], 1]
# input: [[["buy", 499], ["buy", 1], ["return", 300], ["buy", 300], ["redeem", 199]], 1]
# input: [[["buy", 600], ["redeem", 1000], ["redeem", 160], ["gift", 50], ["return", 990]], 2]
# input: [[["buy", 1000], ["buy", 500], ["buy", 35], ["redeem", 99]], 0]
# input: [[["buy", 90], ["buy", 90], ["redeem", 100], ["buy", 450], ["buy", 900], ["return", 10]], 3]
