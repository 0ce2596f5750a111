"""The names descriptor reading had before the reader registry, for callers that still use them
(the fuzzer, tests).  The readers live in :mod:`repomodeler.extract.readers`."""

from __future__ import annotations

from repomodeler.extract.readers._base import ReadFn
from repomodeler.extract.readers._yaml import load_yaml_documents
from repomodeler.extract.readers.registry import read_descriptor as extract_descriptor
from repomodeler.extract.readers.registry import reader_for as _reader_for

__all__ = ["extract_descriptor", "load_yaml_documents", "reader_for"]


def reader_for(path: str, head: str) -> ReadFn | None:
    """The function that reads the descriptor `path` starting with `head`, or None."""
    reader = _reader_for(path, head)
    return reader.read if reader is not None else None
