"""Running untrusted seed code: the warm child (`_child.py`, run by path with no site-packages), the
walls it runs behind (`isolation`), what code may touch (`codepolicy`) and the caller's side (`sandbox`)."""
