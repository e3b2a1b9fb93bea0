"""Candidate inputs for a seed that came without test cases, read from its code (never run here):
shapes and values from the signature and uses (`candidates`), texts that reach its paths (`texts`),
values its callees accept (`accepted`), and what failed runs teach the next round (`lessons`).
ItemsOnDisk apart from the describer and the rewrites so input generation can change without moving them."""
