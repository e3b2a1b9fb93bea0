"""A cipher wheel: each letter is rotated by the next key, and the keys grow by a step every lap.

Digits turn by the shift of the letter before them without advancing the wheel.
"""


def _rotate(char, shift):
    base = ord("a") if char.islower() else ord("A")
    return chr(base + (ord(char) - base + shift) % 26)


def caesar_wheel(text, keys, step):
    wheel = keys or [0]
    letter_count = sum(1 for char in text if char.isascii() and char.isalpha())
    shifts = [wheel[i % len(wheel)] + (i // len(wheel)) * step for i in range(letter_count)]
    pieces = []
    used = 0
    for char in text:
        if char.isascii() and char.isalpha():
            pieces.append(_rotate(char, shifts[used]))
            used += 1
            continue
        if char in "0123456789" and used:
            pieces.append(str((int(char) + shifts[used - 1]) % 10))
            continue
        pieces.append(char)
    return "".join(pieces)


# input: ["Hello, World", [3], 0]
# input: ["", [1, 2], 5]
# input: ["abc", [], 1]
# input: ["attack at dawn", [1, 2, 3], 1]
# input: ["ZzZz", [25], -1]
# input: ["Wheel 42!", [-3, 10], 4]
# input: ["7 up 9", [5], 2]
# input: ["a-b-c-d-e", [0, 0], 13]
# input: ["xyz XYZ", [1000, -1000], 7]
