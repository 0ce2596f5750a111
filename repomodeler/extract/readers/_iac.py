"""What the Terraform and Bicep readers share: the facts they make, and how a value is written down.

Infrastructure as code declares blocks (resources, module calls, variables/parameters, locals/vars,
outputs) whose attributes are nested objects and lists of expressions.  A reader flattens each
block into leaves, one fact per leaf, so the resolver can evaluate them across files and modules
without parsing again:

- ``iac.block``: ``format`` (``terraform``/``bicep``), ``module`` (a Terraform module is its folder, a
  Bicep module its file), ``block`` (``resource``, ``data``, ``module``, ``variable``, ``local``,
  ``output``), ``address`` (how other blocks of the module name it: ``aws_db_instance.main``,
  ``data.google_project.app``, ``module.api``, ``var.image``, ``local.env``, ``output.url``; a Bicep
  resource is ``res.<symbol>``), ``type`` (a resource's type, a module call's ``source``), ``label``
  (a resource's or module call's own name), ``existing`` (a Bicep ``existing`` resource).
- ``iac.value``: ``module``, ``owner`` (the block's address), ``key`` (where the leaf sits inside the
  block: ``template[0].containers[0].env[1].value``, empty for a variable's default, a local's or an
  output's value), ``value`` and ``refs``.

A leaf's ``value`` is a template: literal text, ``${ADDRESS}`` where the expression names another
block (``${var.image}``, ``${google_cloud_run_service.api.status.url}``: list indices dropped) and
``${?}`` where it computes something no reader can know (a conditional, a function call).  ``refs``
lists, space-separated, every address the expression mentions, also inside conditionals and
function calls, so a value computed from a database's address still says which database.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import fact
from repomodeler.records import Fact

UNKNOWN = "${?}"
# Names that are no block of the module: Terraform's iteration and meta values.
NOT_ADDRESSES = frozenset({"each", "count", "path", "self", "terraform", "null"})
_INDEX = re.compile(r"\[[^\]]*\]")


def plain_address(traversal: str) -> str:
    """A traversal without its list indices and splat: ``module.db[0].address`` -> ``module.db.address``."""
    return re.sub(r"\.\*", "", _INDEX.sub("", traversal)).strip(".")


class Leaves:
    """The facts of one file, built leaf by leaf."""

    def __init__(self, fmt: str, repo: str, path: str, module: str) -> None:
        self.fmt, self.repo, self.path, self.module = fmt, repo, path, module
        self.facts: list[Fact] = []

    def block(self, line: int, block: str, address: str, type_: str = "", label: str = "",
              existing: bool = False, each: bool = False) -> None:
        """``each``: the block is declared once per item of a collection (a Bicep ``[for ...]``)."""
        self.facts.append(fact("iac.block", self.repo, self.path, line, format=self.fmt, module=self.module,
                               block=block, address=address, type=type_, label=label,
                               existing="true" if existing else "", each="true" if each else ""))

    def leaf(self, line: int, owner: str, key: str, value: str, refs: set[str]) -> None:
        self.facts.append(fact("iac.value", self.repo, self.path, line, module=self.module, owner=owner,
                               key=key, value=value, refs=" ".join(sorted(refs))))
