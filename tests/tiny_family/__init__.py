"""A sixth family, kept in the tests: proof that a family is one contract in one folder."""
