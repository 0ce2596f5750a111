"""Run history: every published analysis of a system, kept in SQLite under ``$REPOMODELER_HOME``.

See :mod:`repomodeler.store.runs`.  The pipeline calls :func:`record_published_run` right after
it publishes a model; ``repomodeler runs`` and ``repomodeler diff run:SYSTEM:N`` read it back.
"""

from repomodeler.store.runs import RunStore, StoredRun, record_published_run, store_path

__all__ = ["RunStore", "StoredRun", "record_published_run", "store_path"]
