; Entity Framework Core's database provider, chosen where the program configures its DbContext:
; options.UseSqlServer(connectionString), UseNpgsql(...), UseMySql(...), UseSqlite(...): the engine its database runs
; (`engine` is the method's name; stores.sql-drivers reads it as Prisma's provider is read).
((invocation_expression
   function: (member_access_expression name: (identifier) @engine)) @fact
 (#any-of? @engine "UseSqlServer" "UseNpgsql" "UseMySql" "UseMySQL" "UseSqlite" "UseOracle")
 (#set! fact "orm.datasource") (#set! orm "efcore"))
