"""Secrets files a local-file secret store serves: the keys naming hosts are read, the credentials never."""

from repomodeler.extract.readers.config_json import read_secrets_json

SECRETS = """{
  "ConnectionStrings": {
    "CatalogDB": "Server=sqldata;Database=CatalogDb;User Id=sa;Password=Pass@word;TrustServerCertificate=true"
  },
  "State": {"RedisUrl": "redis://:hunter2@basket-redis:6379/0"},
  "Smtp": {"User": "_username", "Password": "_password"}
}
"""


def test_secret_keys_naming_hosts_are_read_without_credentials() -> None:
    facts = read_secrets_json("shop", "dapr/components/shop-secrets.json", SECRETS)
    got = {(f.get("name"), f.get("value"), f.line) for f in facts}
    assert got == {("ConnectionStrings:CatalogDB", "Server=sqldata;Database=CatalogDb", 3),
                   ("State:RedisUrl", "redis://basket-redis:6379/0", 5)}
    text = repr([f.attrs for f in facts])
    assert "Pass@word" not in text and "hunter2" not in text and "_password" not in text
