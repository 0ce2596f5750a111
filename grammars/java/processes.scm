; How the programs of a repository start: a class with `public static void main(String[] args)` is a
; program's entry point; a launcher script naming the class (bin/mqnamesrv, bin/start.sh) runs it.

; public static void main(String[] args) { ... } in class NamesrvStartup
((class_declaration
   name: (identifier) @class
   body: (class_body
           (method_declaration
             (modifiers) @_mods
             type: (void_type)
             name: (identifier) @_name) @fact))
 (#eq? @_name "main") (#match? @_mods "static")
 (#set! fact "program.java_main"))
