"""When two descriptions are one component: a deployment that only names an image and the module
that builds it, or an alternative Dockerfile recipe and the module whose artifact it runs.

Every name is reduced to a *key* (lowercase letters and digits only) and compared as a key, once
with and once without a prefix the whole project shares (``shop-orders`` / ``shop-cart`` images,
``microservice-demo-orders`` folders).  Matching is by equality of keys, never by similarity, and
only a unique match unifies: two candidates for one module mean the evidence is ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def key(name: str) -> str:
    """'Shop_Orders-Service' -> 'shopordersservice'."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def shared_prefix(names: Iterable[str]) -> str:
    """The longest prefix, ending at a separator, that at least two of `names` share and that all of
    them that have a separator share; '' when there is none (``basic-api``, ``basic-auth`` -> ``basic-``)."""
    dashed = sorted({n.lower() for n in names if re.search(r"[-_.]", n)})
    if len(dashed) < 2:
        return ""
    first, last = dashed[0], dashed[-1]
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    common = first[:i]
    cut = max(common.rfind("-"), common.rfind("_"), common.rfind("."))
    return common[: cut + 1] if cut > 0 else ""


def keys_of(names: Iterable[str], prefixes: Iterable[str] = ()) -> set[str]:
    """Keys of `names`, plus the keys left after removing any of `prefixes` (when something is left)."""
    out: set[str] = set()
    plist = [p for p in prefixes if p]
    for n in names:
        if not n:
            continue
        low = n.lower()
        out.add(key(low))
        for p in plist:
            if low.startswith(p) and len(low) > len(p):
                out.add(key(low[len(p):]))
    out.discard("")
    return out


def image_names(image: str) -> list[str]:
    """Names an image goes by: its basename without registry, owner and tag
    (``ghcr.io/acme/shop-orders:1.0`` -> ``shop-orders``)."""
    last = image.split("@")[0].split("/")[-1]
    return [last.split(":")[0]] if last else []


def image_repo(image: str) -> str:
    """An image without tag or digest (``acme/orders:1.0`` -> ``acme/orders``), and without Docker Hub's
    default registry and namespace, which name the same image (``docker.io/acme/orders``,
    ``docker.io/library/postgres`` -> ``acme/orders``, ``postgres``)."""
    base = image.split("@")[0]
    last = base.rsplit("/", 1)[-1]
    name = (base[: len(base) - len(last)] + last.split(":")[0]).lower()
    for prefix in ("docker.io/library/", "index.docker.io/library/", "registry-1.docker.io/library/", "docker.io/",
                   "index.docker.io/", "registry-1.docker.io/", "library/"):
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix):]
    return name


def image_tag(image: str) -> str:
    """The tag of an image reference (``acme/app:1.2`` -> ``1.2``; ``acme/app`` -> ``''``; a digest ignored)."""
    last = image.split("@")[0].rsplit("/", 1)[-1]
    return last.split(":", 1)[1] if ":" in last else ""


def artifact_name(name: str) -> str:
    """A build artifact without version and extension (``orders-0.1.0-SNAPSHOT.jar`` -> ``orders``)."""
    base = re.sub(r"\.(jar|war|ear)$", "", name)
    return re.sub(r"-\d[\w.-]*$", "", base)
