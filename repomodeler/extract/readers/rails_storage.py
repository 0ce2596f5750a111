"""Rails Active Storage's service file (``config/storage.yml``): where the application keeps uploaded files.

Why: a Rails application storing uploads in a provider's object storage says so only here
(``amazon: {service: S3, bucket: ...}``) and in the environment choosing it
(``config.active_storage.service = :amazon``); its code calls no S3 client of its own, Active Storage does.
Each service of a cloud provider becomes a ``storage.service`` fact (``name``, ``service``: ``S3``, ``GCS``,
``AzureStorage``); ``Disk`` (files on the server's own volume) and ``Mirror`` (copies to other services
named in the file) store nowhere else and are not read.  Values are ERB (``<%= ENV["AWS_BUCKET"] %>``): kept
as written, never evaluated.
"""

from __future__ import annotations

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar
from repomodeler.records import Fact

# Active Storage's services of cloud providers (its own names for them).
CLOUD_SERVICES = frozenset({"S3", "GCS", "AzureStorage"})


def read_rails_storage(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for name_node, entry in items(doc):
            service = get(entry, "service")
            if scalar(service) in CLOUD_SERVICES:
                facts.append(fact("storage.service", repo, path, node_line(service), name=scalar(name_node),
                                  service=scalar(service), endpoint=scalar(get(entry, "endpoint"))))
    return facts


def _is_storage(path: str, head: str) -> bool:
    return "service:" in head


READERS = (
    Reader("rails_storage", "descriptor", 431, read_rails_storage, patterns=(r"(.*/)?config/storage\.ya?ml",),
           sniff=_is_storage),
)
