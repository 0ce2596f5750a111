; Code structure: package documentation, programs and the entry functions they call (subsystems and
; processes inside one repository, see repomodeler/graph/subsystems.py).

; // Package server implements the HTTP API.  (`doc` the comment's first line, `more` the next one)
((comment) @doc @fact . (comment)* @more . (package_clause (package_identifier) @name)
 (#match? @doc "^// Package [A-Za-z0-9_]+ ")
 (#set! fact "package.doc"))
; /* Package server implements ... */
((comment) @doc @fact . (package_clause (package_identifier) @name)
 (#match? @doc "^/\\*\\s*Package [A-Za-z0-9_]+ ")
 (#set! fact "package.doc"))

; //go:generate go run ./tagdata -output tables.go  (a code generator `go generate` runs while developing:
; the main package it names is no program of the system, see repomodeler/graph/go_plugins.py)
((comment) @command @fact
 (#match? @command "^//go:generate ")
 (#set! fact "go.generate"))

; //go:build ignore  (or `tools`): a file kept out of the package's build, run by hand with `go run build.go`:
; its `package main` is a script of the repository, no program of the system (repomodeler/graph/go_plugins.py)
((comment) @constraint @fact
 (#match? @constraint "^//go:build (ignore|tools)$")
 (#set! fact "go.build_excluded"))

; package main  (with a `func main()` in the folder: a program)
((package_clause (package_identifier) @_name) @fact
 (#eq? @_name "main")
 (#set! fact "program.main") (#set! part "package"))
; func main() { ... }  (not an empty one: kubebuilder's cmd/main.go placeholder, `func main() {}`, runs nothing)
((function_declaration name: (identifier) @_name parameters: (parameter_list) @_params body: (block) @_body) @fact
 (#eq? @_name "main") (#eq? @_params "()") (#not-match? @_body "^\\{\\s*\\}$")
 (#set! fact "program.main") (#set! part "func"))

; func RunServer(cmd *cobra.Command, args []string) error { ... }: functions a command handler may name
((function_declaration name: (identifier) @name) @fact
 (#match? @name "^([Rr]un|[Ss]erve|[Ss]tart|[Ee]xecute|[Mm]ain|[Ll]aunch)")
 (#set! fact "code.function"))

; server.Serve(ln) / runner.Execute(args) / app.Run(): a call into another package's entry point
((call_expression
   function: (selector_expression operand: (identifier) @package field: (field_identifier) @function)) @fact
 (#any-of? @function "Serve" "Execute" "Run" "Start" "Main" "ListenAndServe" "RunServer" "StartServer")
 (#set! fact "code.call"))
