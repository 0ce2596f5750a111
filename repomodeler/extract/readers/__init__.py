"""Descriptor readers: one module per file format that needs no tree-sitter grammar.

Each module declares ``READERS``, the files it claims (exact names, patterns over the path, and a
look at the file's start when the name alone does not decide) and the function that reads them
into facts; :mod:`.registry` collects them in a fixed order and answers which files the inventory
lists and which reader reads each.  Every reader builds its facts with :func:`._base.fact`.
"""
