"""What more than one purpose of `codeops` reads: facts about seed source (`source`: its functions,
entry point, parameters; `domain`: the words of its domain, which neither descriptions nor tracker
names may bring back) and the read-only libcst walk (`walk`). It imports no other part of `codeops`."""
