"""A limit order book matching buy and sell orders by price, then time.

Orders are ["buy" | "sell", order_id, price, quantity], ["cancel", order_id] or
["modify", order_id, new_quantity]; a modify that raises the quantity sends the resting
order to the back of its price level, one down to zero removes it. A price of
zero or less makes a market order: it trades at any price and its unfilled rest is dropped.
An incoming order trades against the best resting order of the other side (highest bid or
lowest ask, earliest first) at the resting order's price, as long as the prices cross; a
limit order's remainder rests in the book. Orders reusing a known id, or with a non-positive
quantity, are ignored. Returns the trades as [buy_id, sell_id, price, quantity].
"""


def best_index(book, side):
    best = 0
    for index in range(1, len(book)):
        price, sequence = book[index][0], book[index][1]
        best_price, best_sequence = book[best][0], book[best][1]
        better = price > best_price if side == "buy" else price < best_price
        if better or (price == best_price and sequence < best_sequence):
            best = index
    return best


def crosses(side, limit, resting_price):
    if limit <= 0:
        return True
    if side == "buy":
        return limit >= resting_price
    return limit <= resting_price


def match(side, order_id, limit, quantity, opposite, trades):
    resting_side = "sell" if side == "buy" else "buy"
    while quantity > 0 and opposite:
        index = best_index(opposite, resting_side)
        price, _, resting_id, resting_quantity = opposite[index]
        if not crosses(side, limit, price):
            break
        traded = min(quantity, resting_quantity)
        if side == "buy":
            trades.append([order_id, resting_id, price, traded])
        else:
            trades.append([resting_id, order_id, price, traded])
        quantity -= traded
        if traded == resting_quantity:
            opposite.pop(index)
        else:
            opposite[index][3] -= traded
    return quantity


def stock_order_book(orders):
    books = {"buy": [], "sell": []}
    seen = set()
    trades = []
    for sequence, order in enumerate(orders):
        if order[0] == "cancel":
            for side in ("buy", "sell"):
                books[side] = [entry for entry in books[side] if entry[2] != order[1]]
            continue
        if order[0] == "modify":
            for side in ("buy", "sell"):
                for entry in books[side]:
                    if entry[2] != order[1]:
                        continue
                    if order[2] > entry[3]:
                        entry[1] = sequence
                    entry[3] = order[2]
                books[side] = [entry for entry in books[side] if entry[3] > 0]
            continue
        side, order_id, limit, quantity = order
        if order_id in seen or quantity <= 0 or side not in books:
            continue
        seen.add(order_id)
        opposite = books["sell" if side == "buy" else "buy"]
        left = match(side, order_id, limit, quantity, opposite, trades)
        if left > 0 and limit > 0:
            books[side].append([limit, sequence, order_id, left])
    return trades


# input: [[["sell", 1, 101, 5], ["sell", 2, 100, 3], ["buy", 3, 101, 6], ["buy", 4, 99, 2]]]
# input: [[]]
# input: [[["buy", 1, 0, 10]]]
# input: [[["buy", 1, 50, 4], ["buy", 2, 52, 4], ["buy", 3, 52, 1], ["sell", 4, 51, 7]]]
# input: [[["sell", 1, 10, 2], ["cancel", 1], ["buy", 2, 12, 2], ["sell", 1, 11, 2], ["sell", 3, 12, 5]]]
# input: [[["sell", 5, 20, 3], ["sell", 6, 25, 3], ["buy", 7, 0, 5], ["buy", 8, 30, 0], ["buy", 5, 30, 1]]]
# input: [[["buy", 1, 10, 3], ["buy", 2, 11, 3], ["sell", 3, 0, 4], ["sell", 4, 12, 1], ["buy", 5, 12, 2], ["cancel", 1], ["sell", 6, 1, 9]]]
# input: [[["sell", 1, 5, 1], ["sell", 2, 5, 1], ["sell", 3, 4, 1], ["buy", 4, 5, 2], ["cancel", 9], ["hold", 10, 1, 1], ["buy", 11, 6, 3]]]
# input: [[["sell", 1, 9, 2], ["sell", 2, 9, 2], ["sell", 3, 9, 2], ["modify", 1, 5], ["modify", 2, 0], ["modify", 3, 1], ["buy", 4, 9, 4]]]
