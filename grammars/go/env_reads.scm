; Environment and configuration reads.

; os.Getenv("NAME") / os.LookupEnv("NAME")
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . (interpreted_string_literal) @name)) @fact
 (#eq? @_pkg "os") (#any-of? @_fn "Getenv" "LookupEnv")
 (#set! fact "env.read"))

; viper.GetString("orders.url") and friends: a configuration key read
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . (interpreted_string_literal) @expr)) @fact
 (#eq? @_pkg "viper") (#match? @_fn "^Get")
 (#set! fact "config.read"))

; os.Getenv(constants.PostgresqlHost) / os.Getenv(envName): the variable's name is a constant's value
; (resolved against the repository's constants where settings are matched to the code reading them)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . [(identifier) (selector_expression)] @expr)) @fact
 (#eq? @_pkg "os") (#any-of? @_fn "Getenv" "LookupEnv")
 (#set! fact "env.read_ref"))

; struct fields filled from the environment by envconfig / caarlos0/env / cleanenv:
; Host string `env:"POSTGRES_HOST" envDefault:"localhost"`, `envconfig:"KAFKA_BROKERS"`
((field_declaration tag: (raw_string_literal) @expr) @fact
 (#match? @expr "[` ](env|envconfig):\"")
 (#set! fact "config.tag"))
