"""Rails Active Storage's service file (``config/storage.yml``): where the application keeps uploaded files.

Why: a Rails application storing uploads in a provider's object storage says so only here
(``amazon: {service: S3, bucket: ...}``) and in the environment choosing it
(``config.active_storage.service = :amazon``); its code calls no S3 client of its own, Active Storage does.
Each service of a cloud provider becomes a ``storage.service`` fact (``name``, ``service``: ``S3``, ``GCS``,
``AzureStorage``); ``Disk`` (files on the server's own volume) and ``Mirror`` (copies to other services
named in the file) store nowhere else and are not read.  Values are ERB (``<%= ENV["AWS_BUCKET"] %>``): kept
as written, never evaluated.  The production environment's choice (``config/environments/production.rb``:
``config.active_storage.service = :amazon``, or ``ENV.fetch("ACTIVE_STORAGE_SERVICE", "amazon")``: its default)
is a ``storage.choice`` fact, one an assignment: two of them (``:amazon`` when a bucket's keys are set, else
``:local``) leave the choice to the operator.
"""

from __future__ import annotations

import re

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


# `config.active_storage.service = :amazon` / `= ENV.fetch("X", "amazon").to_sym` / `= "amazon".to_sym`
_CHOICE = re.compile(r"""^\s*config\.active_storage\.service\s*=\s*(?::(\w+)|ENV\.fetch\(\s*['"][^'"]+['"]\s*,\s*"""
                     r"""[:'"](\w+)['"]?\s*\)|['"](\w+)['"])""")


# `config.action_mailer.delivery_method = :notify`: the production environment's mail delivery, a setting naming the
# service that delivers (GOV.UK Notify, SendGrid, Postmark) through the mailer gem it configures
_DELIVERY = re.compile(r"""^\s*config\.action_mailer\.delivery_method\s*=\s*:(\w+)""")


def read_rails_environment(repo: str, path: str, text: str) -> list[Fact]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if m := _CHOICE.match(line):
            out.append(fact("storage.choice", repo, path, i, name=next(g for g in m.groups() if g)))
        elif (d := _DELIVERY.match(line)) and d.group(1) not in ("smtp", "sendmail", "file", "test"):
            out.append(fact("config.setting", repo, path, i, name="action_mailer.delivery_method", value=d.group(1)))
    return out


def _is_storage(path: str, head: str) -> bool:
    return "service:" in head


READERS = (
    Reader("rails_storage", "descriptor", 431, read_rails_storage, patterns=(r"(.*/)?config/storage\.ya?ml",),
           sniff=_is_storage),
    Reader("rails_storage.environment", "descriptor", 432, read_rails_environment,
           patterns=(r"(.*/)?config/environments/production\.rb",)),
)
