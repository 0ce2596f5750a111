; NestJS controllers: @Controller("orders") on the class gives `prefix`, @Get(":id") / @Post() on
; a method gives `method` and `path` (absent path = the controller path itself).

; exported controller: @Controller("prefix") export class X { @Get("path") m() {} }
((export_statement
   decorator: (decorator (call_expression function: (identifier) @_ctl arguments: (arguments . (string (string_fragment) @prefix)?)))
   declaration: (class_declaration
     body: (class_body
       (decorator (call_expression function: (identifier) @method arguments: (arguments . (string (string_fragment) @path)?))) @fact)))
 (#eq? @_ctl "Controller")
 (#any-of? @method "Get" "Post" "Put" "Delete" "Patch" "Head" "Options" "All")
 (#set! fact "http.route") (#set! framework "nestjs"))

; non-exported controller: @Controller("prefix") class X { ... }
((class_declaration
   decorator: (decorator (call_expression function: (identifier) @_ctl arguments: (arguments . (string (string_fragment) @prefix)?)))
   body: (class_body
     (decorator (call_expression function: (identifier) @method arguments: (arguments . (string (string_fragment) @path)?))) @fact))
 (#eq? @_ctl "Controller")
 (#any-of? @method "Get" "Post" "Put" "Delete" "Patch" "Head" "Options" "All")
 (#set! fact "http.route") (#set! framework "nestjs"))
