"""A warehouse that reorders an item when its stock falls to the reorder threshold.

Products are [name, stock, threshold, reorder_quantity]. Each day: deliveries due that day
arrive first, then that day's sales are served (unserved units are lost sales; a negative
sale is a customer return), then every item at or below its threshold without an open order
gets one, arriving lead_time days later (half that, rounded down, when the item is sold out;
never sooner than the next day).
"""


def inventory_restock(products, daily_sales, lead_time):
    stock = {name: units for name, units, _, _ in products}
    rules = {name: (threshold, quantity) for name, _, threshold, quantity in products}
    arrivals = {}
    lost = 0
    orders = 0
    for day, sales in enumerate(daily_sales):
        for name, quantity in arrivals.pop(day, []):
            stock[name] += quantity
        for name, wanted in sales:
            if name not in stock:
                lost += max(0, wanted)
                continue
            if wanted < 0:
                stock[name] -= wanted
                continue
            sold = min(wanted, stock[name])
            stock[name] -= sold
            lost += wanted - sold
        open_orders = {name for due in arrivals.values() for name, _ in due}
        for name in sorted(stock):
            threshold, quantity = rules[name]
            delay = lead_time
            if stock[name] == 0:
                delay = lead_time // 2
            if stock[name] <= threshold and name not in open_orders and quantity > 0:
                due_day = day + max(1, delay)
                arrivals.setdefault(due_day, []).append([name, quantity])
                orders += 1
    report = {name: stock[name] for name in sorted(stock)}
    report["lost_sales"] = lost
    report["orders_placed"] = orders
    return report


# input: [[["bolt", 10, 4, 10], ["nut", 5, 2, 6]], [[["bolt", 3]], [["bolt", 4], ["nut", 2]], [["nut", 4]], [["bolt", 5]]], 2]
# input: [[], [], 1]
# input: [[["gear", 0, 0, 5]], [[], [], []], 0]
# input: [[["pipe", 3, 1, 0]], [[["pipe", 5]], [["pipe", 1]]], 1]
# input: [[["cap", 8, 3, 4]], [[["cap", 6]], [["cap", 1], ["valve", 2]], [["cap", 2]], [["cap", 3]], [["cap", 1]]], 1]
# input: [[["a", 2, 5, 3], ["b", 9, 1, 2]], [[["b", 9]], [["a", 4], ["b", 1]], [], [["a", 1], ["b", 3]]], 3]
# input: [[["tape", 1, 1, 1]], [[["tape", 1]], [["tape", 1]], [["tape", 1]], [["tape", 1]]], 1]
# input: [[["rod", 20, 2, 10]], [[["rod", 19]], [["rod", -3], ["bar", 2]], [["rod", 5]]], 5]
