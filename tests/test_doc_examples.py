"""Example values written for documentation are no addresses the program connects to."""

from repomodeler.extract.engine import extract_source


def urls(path: str, language: str, src: str) -> set[str]:
    facts, _warnings = extract_source("r", path, language, src.encode())
    return {f.get("value") or "" for f in facts if f.kind == "string.url"}


def test_pydantic_field_examples_are_documentation():
    src = ('from pydantic import Field\n\nclass Block:\n'
           '    url: str = Field(\n        default=None,\n        examples=["s3://bucket/folder/data.csv", "postgres://dbtable"],\n    )\n'
           'DATABASE = "postgres://db:5432/app"\n')
    assert urls("blocks.py", "python", src) == {"postgres://db:5432/app"}


def test_openapi_decorator_examples_are_documentation():
    src = ("class Hook {\n  @ApiProperty({\n    example: 'https://hooks.example.org/in',\n  })\n  url: string;\n}\n"
           "const orders = 'http://orders:8080/api';\n")
    assert urls("hook.ts", "typescript", src) == {"http://orders:8080/api"}


def test_java_schema_examples_are_documentation():
    src = ('class Hook {\n  @Schema(\n    example = "https://hooks.example.org/in")\n  String url;\n'
           '  String orders = "http://orders:8080/api";\n}\n')
    assert urls("Hook.java", "java", src) == {"http://orders:8080/api"}
