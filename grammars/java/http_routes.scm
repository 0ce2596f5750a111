; Spring MVC / WebFlux: @GetMapping("/x"), @PostMapping(path = "/x"), @RequestMapping("/x") on methods,
; joined with a class-level @RequestMapping("/prefix") when there is one.
((class_declaration
   (modifiers
     (annotation name: (identifier) @_cls arguments: (annotation_argument_list (string_literal) @prefix)))
   body: (class_body
     (method_declaration
       (modifiers
         (annotation
           name: (identifier) @method
           arguments: (annotation_argument_list
             [(string_literal) @path
              (element_value_pair key: (identifier) @_k value: (string_literal) @path)])) @fact))))
 (#eq? @_cls "RequestMapping")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#set! fact "http.route") (#set! framework "spring"))

((method_declaration
   (modifiers
     (annotation
       name: (identifier) @method
       arguments: (annotation_argument_list
         [(string_literal) @path
          (element_value_pair key: (identifier) @_k value: (string_literal) @path)])) @fact))
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#set! fact "http.route") (#set! framework "spring"))

; Bare @GetMapping with no path on a method of a class with a prefix.
((class_declaration
   (modifiers
     (annotation name: (identifier) @_cls arguments: (annotation_argument_list (string_literal) @prefix)))
   body: (class_body
     (method_declaration
       (modifiers (marker_annotation name: (identifier) @method) @fact))))
 (#eq? @_cls "RequestMapping")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping")
 (#set! fact "http.route") (#set! framework "spring") (#set! path ""))
