"""Compare architectures: load models (model.json, SysML, stored runs), match, diff, plan, check.

Modules: ``load`` (any source -> :class:`~repomodeler.diff.view.ArchModel`), ``core`` (matching
and the :class:`Diff` records), ``render`` (table / JSON / Delta SysML), ``steps`` (migration plan),
``overlay`` (viewer overlay), ``target`` (scaffold a target), ``rules`` (drift check).
"""
