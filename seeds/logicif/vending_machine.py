"""A coin-operated vending machine that makes change from its own coin float.

Slots are [price, stock]; the float is [[coin, count], ...]. Events are ["coin", value],
["select", slot] and ["cancel"]. Inserted coins join the float at once. Every time something
drops into the tray the machine records [slot or -1, coins returned largest first...].
"""

def make_change(amount, coins):
    change = []
    for coin in sorted(coins, reverse=True):
        take = min(amount // coin, coins[coin])
        change.extend([coin] * take)
        amount -= take * coin
    if amount != 0:
        return None
    return change


def pay_out(returned, coins):
    for coin in returned:
        coins[coin] -= 1
    return sorted(returned, reverse=True)


def vending_machine(slots, coin_float, events):
    accepted = (5, 10, 25, 100)
    stock = [item[1] for item in slots]
    coins = {coin: 0 for coin in accepted}
    for coin, count in coin_float:
        if coin in coins:
            coins[coin] += count
    inserted = []
    tray = []
    for event in events:
        kind = event[0]
        if kind == "coin":
            value = event[1]
            if value not in accepted or sum(inserted) >= 200:
                tray.append([-1, value])
            else:
                inserted.append(value)
                coins[value] += 1
        elif kind == "cancel":
            if inserted:
                tray.append([-1] + pay_out(inserted, coins))
            inserted = []
        elif kind == "select":
            slot = event[1]
            if slot < 0 or slot >= len(slots):
                continue
            credit = sum(inserted)
            price = slots[slot][0]
            if stock[slot] == 0:
                if inserted:
                    tray.append([-1] + pay_out(inserted, coins))
                    inserted = []
                continue
            if credit < price:
                continue
            change = make_change(credit - price, coins)
            if change is None:
                tray.append([-1] + pay_out(inserted, coins))
            else:
                stock[slot] -= 1
                tray.append([slot] + pay_out(change, coins))
            inserted = []
    return tray


# input: [[[65, 2], [100, 1]], [[5, 2], [10, 3], [25, 1]], [["coin", 100], ["select", 0], ["coin", 25], ["coin", 25], ["select", 0]]]
# input: [[], [], []]
# input: [[[30, 1]], [], [["coin", 25], ["coin", 5], ["select", 0], ["coin", 10], ["select", 0]]]
# input: [[[40, 3]], [[10, 1]], [["coin", 3], ["coin", 25], ["coin", 25], ["select", 0], ["coin", 100], ["cancel"]]]
# input: [[[15, 1], [20, 0]], [[5, 4]], [["coin", 100], ["coin", 100], ["coin", 100], ["select", 1], ["select", 5], ["cancel"]]]
# input: [[[70, 2]], [[25, 2], [10, 0], [1, 9]], [["coin", 100], ["select", 0], ["coin", 100], ["select", 0], ["coin", 100], ["select", 0]]]
# input: [[[0, 1]], [], [["select", 0], ["select", 0], ["cancel"], ["coin", 5], ["select", 0]]]
# input: [[[55, 1], [35, 2]], [[10, 2], [5, 1], [25, 1]], [["coin", 25], ["coin", 25], ["coin", 25], ["select", 1], ["coin", 10], ["coin", 25], ["select", 0], ["select", -1]]]
