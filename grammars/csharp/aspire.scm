; .NET Aspire app hosts (the AppHost project's Program.cs) are deployment descriptors written in C#:
; each statement that adds a resource or wires one to another becomes one fact carrying the
; statement's text; the resolver reads the builder calls in it (AddProject<Projects.X>("name"),
; AddPostgres/AddRedis/AddRabbitMQ/AddDatabase, WithReference(x), WithEnvironment("K", x)).

; var catalogApi = builder.AddProject<Projects.Catalog_API>("catalog-api").WithReference(catalogDb);
((local_declaration_statement
   (variable_declaration (variable_declarator name: (identifier) @var))) @text @fact
 (#match? @text "\\.(Add|With)[A-Z][A-Za-z]*\\s*(<[^>]*>)?\\s*\\(|\\.GetEndpoint\\s*\\(")
 (#set! only_files "(?i)(^|/)[^/]*app[-_.]?host[^/]*/[^/]*\\.cs$")
 (#set! fact "aspire.statement"))

; builder.AddProject<Projects.OrderProcessor>("order-processor").WithReference(rabbitMq);
; webApp.WithReference(basketApi);
((expression_statement) @text @fact
 (#match? @text "\\.(Add|With)[A-Z][A-Za-z]*\\s*(<[^>]*>)?\\s*\\(")
 (#set! only_files "(?i)(^|/)[^/]*app[-_.]?host[^/]*/[^/]*\\.cs$")
 (#set! fact "aspire.statement"))
