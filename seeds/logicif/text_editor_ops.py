"""A one-line text editor with a cursor, clipboard and undo; the result shows the cursor as '|'.

The text never grows past a length limit; "upper" capitalises the word left of the cursor.
"""


def text_editor_ops(commands, limit):
    text = ""
    cursor = 0
    clipboard = ""
    history = []

    def remember():
        history.append((text, cursor))

    def move(delta):
        nonlocal cursor
        cursor = max(0, min(len(text), cursor + delta))

    def erase(count, forward):
        nonlocal text, cursor
        if forward:
            removed = text[cursor:cursor + count]
            text = text[:cursor] + text[cursor + count:]
            return removed
        start = max(0, cursor - count)
        removed = text[start:cursor]
        text = text[:start] + text[cursor:]
        cursor = start
        return removed

    def insert(piece):
        nonlocal text, cursor
        room = max(0, limit - len(text))
        piece = piece[:room]
        text = text[:cursor] + piece + text[cursor:]
        cursor += len(piece)
        return len(piece)

    for command in commands:
        op = command[0]
        arg = command[1] if len(command) > 1 else 1
        if op == "type":
            remember()
            insert(str(arg))
            continue
        if op in ("left", "right"):
            move(-arg if op == "left" else arg)
            continue
        if op == "home" or op == "end":
            cursor = 0 if op == "home" else len(text)
            continue
        if op in ("back", "del", "cut"):
            if arg > 0 and text:
                remember()
                removed = erase(arg, op == "del")
                if op == "cut":
                    clipboard = removed
            continue
        if op == "copy":
            clipboard = text[max(0, cursor - arg):cursor]
            continue
        if op == "paste":
            if clipboard:
                remember()
                for _ in range(arg):
                    if insert(clipboard) < len(clipboard):
                        break
            continue
        if op == "upper":
            start = cursor
            while start > 0 and text[start - 1] != " ":
                start -= 1
            if start < cursor:
                remember()
                text = text[:start] + text[start:cursor].upper() + text[cursor:]
            continue
        if op == "undo":
            for _ in range(arg):
                if not history:
                    break
                text, cursor = history.pop()
    return text[:cursor] + "|" + text[cursor:]


# input: [[["type", "hello"], ["left", 2], ["type", "XY"], ["upper"], ["end"], ["back", 1]], 20]
# input: [[], 10]
# input: [[["type", "abc"], ["home"], ["del", 2], ["undo"], ["right", 5]], 10]
# input: [[["type", "ab"], ["copy", 2], ["paste", 3], ["left", 1], ["cut", 3], ["home"], ["paste"]], 20]
# input: [[["type", "abcdef"], ["paste", 2], ["copy", 4], ["paste", 5]], 12]
# input: [[["type", "one"], ["type", " two"], ["upper"], ["undo", 5], ["type", "z"], ["left", 9], ["back", 3]], 15]
# input: [[["type", 42], ["home"], ["right", 1], ["del", 0], ["cut", 1], ["end"], ["paste", 2], ["undo", 1]], 8]
# input: [[["type", "longer text"], ["home"], ["type", "x"], ["upper"], ["end"], ["upper"], ["undo", 1]], 5]
