"""The models folder as the MCP server reads it: through the viewer's checks, one index per model.

A models folder is untrusted (see :mod:`repomodeler.serve.store`): every model is located and read
by :class:`repomodeler.serve.store.ModelStore` (plain folder names, no symbolic links, files opened
with O_NOFOLLOW) and every model.json is capped, costed and cached by :mod:`repomodeler.serve.budget`,
so a forged or oversized model is refused with the reason the viewer's gallery gives.  The query
index of a model is built once per model.json identity and reused across questions.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from repomodeler.query import QueryIndex
from repomodeler.query.load import Loaded, sysml_text
from repomodeler.records import RepomodelerError
from repomodeler.serve import budget
from repomodeler.serve.store import BrokenModel, ModelStore, NotFound

#: Query indexes kept in memory at once (the parsed JSON is bounded separately by serve/budget.py).
MAX_INDEXES = 16


@dataclass(frozen=True)
class ModelInfo:
    """A model of the folder as ``list_models`` shows it; a broken one says why."""

    name: str
    title: str = ""
    components: int = 0
    connections: int = 0
    broken: bool = False
    error: str = ""


@dataclass(frozen=True)
class ModelsAnswer:
    """``list_models``: the models of the folder the server was started on."""

    folder: str
    models: tuple[ModelInfo, ...]


class ModelsFolder:
    """Read-only access to the models under one folder, for the MCP server's tools and resources."""

    def __init__(self, root: Path) -> None:
        self.store = ModelStore(Path(root))
        self._indexes: OrderedDict[tuple[str, tuple[int, ...]], QueryIndex] = OrderedDict()
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        return self.store.names()

    def listing(self) -> ModelsAnswer:
        models = []
        for name in self.names():
            card = self.store.safe_summary(name)
            if card is None:
                continue
            models.append(ModelInfo(name=name, title=str(card.get("title") or name),
                                    components=int(card["counts"]["components"]),
                                    connections=int(card["counts"]["connections"]),
                                    broken=bool(card.get("broken")), error=str(card.get("error") or "")))
        return ModelsAnswer(folder=self.store.root.name, models=tuple(models))

    def _unknown(self, name: object) -> RepomodelerError:
        names = self.names()
        return RepomodelerError(f"error: no model '{str(name)[:120]}' in the models folder; models: "
                                f"{', '.join(names[:20]) or 'none'} (the list_models tool shows them)")

    def index(self, name: str) -> QueryIndex:
        """The query index of model `name`; a one-line error for an unknown, forged or oversized model."""
        try:
            folder = self.store.folder(name)
        except NotFound:
            raise self._unknown(name) from None
        try:
            st = os.lstat(folder / "model.json")
            key = (name, (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        except OSError:
            raise self._unknown(name) from None
        with self._lock:
            hit = self._indexes.get(key)
            if hit is not None:
                self._indexes.move_to_end(key)
                return hit
        try:
            model = self.store.architecture(name)  # capped, costed, parsed once (serve/budget.py)
        except BrokenModel as exc:
            raise RepomodelerError(f"error: model '{name}' is refused: {exc.reason}") from None
        except NotFound:
            raise self._unknown(name) from None
        index = QueryIndex(model, name)
        with self._lock:
            self._indexes[key] = index
            while len(self._indexes) > MAX_INDEXES:
                self._indexes.popitem(last=False)
        return index

    def model_json(self, name: str) -> str:
        """The model.json text, once the viewer's checks accept it."""
        self.index(name)
        return self.store.open_file(name, "model.json", budget.MAX_MODEL_JSON_BYTES).decode("utf-8")

    def sysml(self, name: str) -> str:
        """The model.sysml text (within the size the viewer reads a model.json)."""
        try:
            self.store.folder(name)
        except NotFound:
            raise self._unknown(name) from None
        try:
            data = self.store.open_file(name, "model.sysml", budget.MAX_MODEL_JSON_BYTES)
        except NotFound:
            raise RepomodelerError(f"error: model '{name}' has no readable model.sysml (missing, a symbolic link "
                                   f"or over {budget.MAX_MODEL_JSON_BYTES // budget.MB} MB)") from None
        return data.decode("utf-8", errors="replace")

    def target(self, name: str, target: str) -> Loaded:
        """A target to compare model `name` with: another model of the folder, or a .sysml file directly
        inside model `name`'s folder (read through the viewer's file check)."""
        if not isinstance(target, str) or not target.strip():
            raise RepomodelerError("error: against needs a target: another model's name or a .sysml file in the model's folder")
        target = target.strip()
        if target.endswith(".sysml"):
            try:
                self.store.folder(name)
                text = self.store.open_file(name, target, budget.MAX_MODEL_JSON_BYTES).decode("utf-8", errors="replace")
            except NotFound:
                raise RepomodelerError(f"error: no file '{target[:120]}' directly inside model '{name}'s folder "
                                       "(give a .sysml file name there, or another model's name)") from None
            return sysml_text(text, f"{name}/{target}")
        index = self.index(target)
        return Loaded(index.model, target)
