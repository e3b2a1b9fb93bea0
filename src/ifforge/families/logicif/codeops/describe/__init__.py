"""Code told in English, never quoted: `narrate` tells the instrumented function step by step,
`english` says expressions, `facts` reads what the module holds once, `vocab/` holds one file per
library, and the rest say one kind of thing each (method tables, regular expressions, formats,
wildcards, paths, Unicode, plain values, role names).
`errors.Undescribable` names what cannot be said. It reads the code it is given and rewrites none of
it, so it imports nothing from `instrument`, `inputs` or `metrics`."""
