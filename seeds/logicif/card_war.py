"""The card game War with small decks: tied cards pile up and go to the next round's winner."""

from collections import deque


def card_war(deck_a, deck_b, max_rounds):
    hand_a = deque(deck_a)
    hand_b = deque(deck_b)
    pot = []
    rounds = 0
    while hand_a and hand_b and rounds < max_rounds:
        rounds += 1
        card_a = hand_a.popleft()
        card_b = hand_b.popleft()
        pot.extend(sorted([card_a, card_b], reverse=True))
        if card_a > card_b:
            hand_a.extend(pot)
            pot = []
        if card_b > card_a:
            hand_b.extend(pot)
            pot = []
    return (rounds, [len(hand_a), len(hand_b), len(pot)])


# input: [[5, 2, 9], [3, 7, 1], 20]
# input: [[], [1, 2], 10]
# input: [[4], [4], 10]
# input: [[1, 2, 3, 4], [5, 6, 7, 8], 30]
# input: [[6, 3, 3, 8], [2, 3, 5, 1], 30]
# input: [[2, 7], [7, 2], 12]
# input: [[10, 1, 5, 5, 2], [3, 9, 5, 4, 2], 0]
# input: [[8, 4, 6, 2, 9], [5, 7, 1, 3, 6], 25]
