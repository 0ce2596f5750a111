"""Nacos configuration seeded by SQL: each `config_info` row's document is read as Spring settings at its row's line."""

from repomodeler.extract.readers.nacos import read_nacos_sql

SEED = """CREATE TABLE `config_info` (
  `id` bigint NOT NULL,
  `data_id` varchar(255) NOT NULL,
  `content` longtext NOT NULL
);

insert into config_info(id, data_id, group_id, content, md5, type) values
(1,'application-dev.yml','DEFAULT_GROUP','management:\\n  endpoints:\\n    web:\\n      exposure:\\n        include: \\'*\\'\\n','aa','yaml'),
(2,'gateway-dev.yml','DEFAULT_GROUP','spring:\\n  cloud:\\n    gateway:\\n      routes:\\n        - id: orders\\n          uri: lb://orders\\n','bb','yaml'),
(3,'orders-dev.properties','DEFAULT_GROUP','spring.datasource.url=jdbc:mysql://db:3306/shop?useSSL=false\\nit''s=fine\\n',NULL,'properties');
INSERT INTO `config_info` (`id`, `data_id`, `content`) VALUES (4, 'notes.txt', 'just text');
"""


def test_each_row_is_a_configuration_document_named_by_its_data_id() -> None:
    facts = read_nacos_sql("shop", "db/nacos_config.sql", SEED)
    got = [(f.line, f.get("config_file"), f.get("name"), f.get("value")) for f in facts]
    assert got == [
        (8, "application-dev.yml", "management.endpoints.web.exposure.include", "*"),
        (9, "gateway-dev.yml", "spring.cloud.gateway.routes[0].id", "orders"),
        (9, "gateway-dev.yml", "spring.cloud.gateway.routes[0].uri", "lb://orders"),
        (10, "orders-dev.properties", "spring.datasource.url", "jdbc:mysql://db:3306/shop?useSSL=false"),
        (10, "orders-dev.properties", "it's", "fine"),  # a doubled quote is one quote
    ]
    assert all(f.path == "db/nacos_config.sql" and not f.get("profile") for f in facts)


def test_a_file_without_config_rows_or_a_broken_row_gives_nothing_wrong() -> None:
    assert read_nacos_sql("shop", "schema.sql", "CREATE TABLE config_info (id int);") == []
    broken = "insert into config_info(id, data_id, content) values (1, 'a.yml', 'x: [unclosed\\n');"
    assert read_nacos_sql("shop", "seed.sql", broken) == []  # content that is no YAML: skipped, no crash
    truncated = "insert into config_info(id, data_id, content) values (1, 'a.yml', 'x: 1"
    assert read_nacos_sql("shop", "seed.sql", truncated) == []
