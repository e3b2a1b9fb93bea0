"""Evaluate a reverse-Polish program on an integer stack, reporting the first error it meets."""


def _take(stack, count, lenient=False):
    if len(stack) >= count:
        taken = stack[-count:]
        del stack[-count:]
        return taken
    if lenient:
        taken = [0] * (count - len(stack)) + stack[:]
        stack.clear()
        return taken
    return None


def _is_number(token):
    return token.isdigit() or (token[:1] == "-" and token[1:].isdigit())


def stack_calculator(program, lenient):
    stack = []
    binary = ("+", "-", "*", "/", "%", "max")
    for position, token in enumerate(program, start=1):
        if _is_number(token):
            stack.append(int(token))
            continue
        if token in binary:
            operands = _take(stack, 2, lenient=lenient)
            if operands is None:
                return f"error: underflow at {position}"
            left, right = operands
            if token in ("/", "%"):
                if right == 0:
                    if lenient:
                        stack.append(0)
                        continue
                    return f"error: division by zero at {position}"
                stack.append(left // right if token == "/" else left % right)
            elif token == "max":
                stack.append(max(left, right))
            else:
                stack.append({"+": left + right, "-": left - right, "*": left * right}[token])
            continue
        if token in ("dup", "neg", "drop"):
            operands = _take(stack, 1, lenient=lenient or token == "drop")
            if operands is None:
                return f"error: underflow at {position}"
            if token == "dup":
                stack.extend(operands * 2)
            if token == "neg":
                stack.append(-operands[0])
            continue
        if token == "swap":
            operands = _take(stack, 2, lenient=lenient)
            if operands is None:
                return f"error: underflow at {position}"
            stack.extend(reversed(operands))
            continue
        if token == "?":
            operands = _take(stack, 3, lenient=lenient)
            if operands is None:
                return f"error: underflow at {position}"
            stack.append(operands[0] if operands[2] else operands[1])
            continue
        return f"error: unknown token {token} at {position}"
    if not stack:
        return "error: empty stack"
    if len(stack) > 1 and not lenient:
        return f"error: {len(stack)} values left"
    return stack[-1]


# input: [["3", "4", "+", "2", "*"], false]
# input: [[], false]
# input: [["7"], true]
# input: [["1", "+"], false]
# input: [["1", "+"], true]
# input: [["8", "0", "/", "5", "-3", "%"], true]
# input: [["8", "0", "/"], false]
# input: [["5", "dup", "*", "neg", "10", "swap", "-", "4", "max"], false]
# input: [["2", "9", "1", "?", "3", "0", "6", "?", "drop", "drop", "pow"], false]
# input: [["4", "6", "2", "swap", "-", "dup"], false]
