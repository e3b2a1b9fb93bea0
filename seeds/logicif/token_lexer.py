"""A tiny state-machine lexer for arithmetic: numbers, names, operators, unary minus, implicit times."""


def _char_class(char):
    if char.isdigit():
        return "digit"
    if char.isalpha() or char == "_":
        return "letter"
    if char == ".":
        return "dot"
    if char in "+-*/^%":
        return "op"
    if char in "()":
        return "paren"
    if char.isspace():
        return "space"
    return "other"


def _ends_operand(tokens):
    return bool(tokens) and (tokens[-1].startswith(("NUM", "ID")) or tokens[-1] == "RPAREN")


def _flush(tokens, state, buffer):
    if buffer:
        kind = "ID" if state == "ident" else "NUM"
        tokens.append(f"{kind}:{buffer}")


def token_lexer(source, implicit_multiply):
    tokens = []
    state = "start"
    buffer = ""
    errors = 0
    for char in source:
        kind = _char_class(char)
        if state == "int" and (kind == "digit" or kind == "dot"):
            buffer += char
            if kind == "dot":
                state = "frac"
            continue
        if state == "frac" and kind == "digit":
            buffer += char
            continue
        if state == "ident" and kind in ("letter", "digit"):
            buffer += char
            continue
        _flush(tokens, state, buffer)
        buffer, state = "", "start"
        if kind in ("digit", "letter", "dot"):
            if implicit_multiply and _ends_operand(tokens):
                tokens.append("OP:*")
            buffer = "0." if kind == "dot" else char
            state = {"digit": "int", "letter": "ident", "dot": "frac"}[kind]
            continue
        if kind == "op":
            if char == "-":
                if not _ends_operand(tokens):
                    if tokens and tokens[-1] == "NEG":
                        tokens.pop()
                    else:
                        tokens.append("NEG")
                    continue
            tokens.append("OP:" + char)
            continue
        if kind == "paren":
            if char == "(" and implicit_multiply and _ends_operand(tokens):
                tokens.append("OP:*")
            tokens.append("LPAREN" if char == "(" else "RPAREN")
            continue
        if kind == "other":
            errors += 1
            tokens.append("ERR:" + char)
    _flush(tokens, state, buffer)
    if errors:
        tokens.append(f"ERRORS:{errors}")
    return tokens


# input: ["3+4*x", false]
# input: ["", true]
# input: ["2x(y-1)", true]
# input: ["2x(y-1)", false]
# input: ["--5 - -a1", true]
# input: ["3.14*.5 + 1.2.3", false]
# input: ["(a)(b) $ 7#", true]
# input: ["-(-x_2)^2 % 10", true]
