"""Single-elimination tournament: best seed meets worst seed each round, an odd field gives a bye."""


def _match(favourite, underdog, ratings, upset_margin=0):
    if ratings[favourite - 1] >= ratings[underdog - 1] + upset_margin:
        return favourite
    return underdog


def tournament_bracket(ratings, underdog_bonus):
    field = list(range(1, len(ratings) + 1))
    rounds = []
    while len(field) > 1:
        winners = [field[0]] if len(field) % 2 else []
        contenders = field[1:] if len(field) % 2 else field
        for pairing in range(len(contenders) // 2):
            favourite, underdog = contenders[pairing], contenders[-1 - pairing]
            winners.append(_match(favourite, underdog, ratings, upset_margin=underdog_bonus))
        field = sorted(winners)
        rounds.append(field)
    return rounds


# input: [[90, 80, 70, 60], 0]
# input: [[], 5]
# input: [[50], 0]
# input: [[70, 75, 60, 65, 50, 55, 40, 45], 0]
# input: [[70, 75, 60, 65, 50, 55, 40, 45], 10]
# input: [[10, 20, 30, 40, 50], 0]
# input: [[100, 99, 98, 1, 2, 3, 97], -5]
# input: [[5, 5, 5, 5, 5, 5], 0]
