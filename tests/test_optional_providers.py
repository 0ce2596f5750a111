"""Where a provider's host is written decides whether only that provider reaches it (rule code.optional-plugins):
a URL in a flag's help text is an example, and a host the code writes in no URL literal (``url.URL{Host: ...}``)
is found where the external system was found."""

from __future__ import annotations

from repomodeler.extract.readers._base import fact
from repomodeler.graph.plugins import PluginRules
from repomodeler.records import Evidence


class _Literals(PluginRules):
    """The plug-in rules over a fixed set of URL literals (no model needed for this question)."""

    def __init__(self, literals: list[tuple[str, str]]) -> None:
        self.by_kind = {"string.url": [fact("string.url", "proxy", path, 1, value=value) for path, value in literals]}
        self._url_literals = None


def test_a_url_in_help_text_is_no_address_the_product_writes() -> None:
    rules = _Literals([("providers/google.go", "https://accounts.google.com/o/oauth2/auth"),
                       ("pkg/options/flags.go", "OpenID Connect issuer URL (ie: https://accounts.google.com)")])
    assert rules._host_written_only_in_plugins("accounts.google.com")


def test_a_url_the_product_itself_writes_keeps_the_host_its_own() -> None:
    rules = _Literals([("providers/google.go", "https://accounts.google.com/o/oauth2/auth"),
                       ("pkg/validation/issuer.go", "https://accounts.google.com")])
    assert not rules._host_written_only_in_plugins("accounts.google.com")


def test_a_host_in_no_url_literal_is_judged_where_it_was_found() -> None:
    rules = _Literals([])
    found = {Evidence("proxy", "providers/azure.go", 42)}
    assert rules._host_written_only_in_plugins("login.microsoftonline.com", found)
    assert not rules._host_written_only_in_plugins("login.microsoftonline.com", {Evidence("proxy", "pkg/auth.go", 9)})
    assert not rules._host_written_only_in_plugins("login.microsoftonline.com")
