"""Validate a string of four bracket kinds, scoring matched pairs by depth, with optional repair."""


def bracket_machine(text, strict):
    pairs = {")": "(", "]": "[", "}": "{", ">": "<"}
    weights = {"(": 1, "[": 2, "{": 3, "<": 4}
    stack = []
    score = 0
    max_depth = 0
    stray = 0
    repaired = 0
    escaped = False
    status = "ok"
    error_at = -1
    for position, char in enumerate(text):
        if escaped:
            escaped = False
            continue
        if char == "\\":
            escaped = True
            continue
        if char in weights:
            stack.append(char)
            max_depth = max(max_depth, len(stack))
            continue
        if char in pairs:
            target = pairs[char]
            if not stack:
                status, error_at = "unopened", position
                break
            if stack[-1] == target:
                stack.pop()
                score += weights[target] * (len(stack) + 1)
                continue
            if strict:
                status, error_at = "mismatch", position
                break
            if target in stack:
                while stack[-1] != target:
                    stack.pop()
                    repaired += 1
                    score -= 1
                stack.pop()
            else:
                score -= weights[target]
            continue
        if char == "*":
            if stack:
                stack.pop()
                score += 1
            else:
                stray += 1
            continue
        if not char.isspace():
            stray += 1
            if strict:
                status, error_at = "stray", position
                break
    completion = 0
    if status == "ok" and escaped:
        status = "dangling escape"
    if status == "ok" and stack:
        status = "incomplete"
        for opener in reversed(stack):
            completion = completion * 5 + weights[opener]
    return {
        "valid": status == "ok",
        "status": status,
        "score": score,
        "max_depth": max_depth,
        "completion": completion,
        "repaired": repaired,
        "stray": stray,
        "error_at": error_at,
    }


# input: ["([]{<>})", true]
# input: ["", true]
# input: ["(((", true]
# input: ["([)]", true]
# input: ["([)]", false]
# input: ["{<(]}>", false]
# input: ["a(b)*\\)", true]
# input: ["<[{ }]> ) (", false]
# input: ["(*[x]**\\", false]
