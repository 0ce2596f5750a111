"""`repomodeler mcp`: the architecture questions of :mod:`repomodeler.query` served over the Model
Context Protocol (see :mod:`.server`), over the models of one folder (:mod:`.folder`), read-only
unless the operator allows analyses of named hosts (:mod:`.analyze`)."""
