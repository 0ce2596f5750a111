; Moleculer, a Node.js microservices framework: services declare a schema by name, and call each other's
; actions through the broker by "<service>.<action>" (graph/moleculer.py links the two).

; A service schema: { name: "boards", version: 1, mixins: [...], actions: {...} }, in module.exports,
; broker.createService(...) or this.parseServiceSchema(...). Only an object that also holds actions, events,
; mixins or methods is a schema (a config object with a `name` is not).
((object
   (pair key: (property_identifier) @_k value: [(string (string_fragment) @name) (template_string . (string_fragment) @name .)]) @fact
   (pair key: (property_identifier) @_a))
 (#eq? @_k "name")
 (#any-of? @_a "actions" "events" "mixins" "methods")
 (#set! fact "moleculer.service"))

;; ... with its version, which prefixes the name actions are called by (version 1 of "boards" is "v1.boards"): the
; version beside a name, which graph/moleculer.py gives the schema whose name is on that line.  (Two sibling pairs
; at most in one pattern: a third makes matching cubic in the pairs of an object, minutes for a translation table.)
((object
   (pair key: (property_identifier) @_k value: [(string (string_fragment) @name) (template_string . (string_fragment) @name .)]) @fact
   (pair key: (property_identifier) @_v value: [(number) (string (string_fragment))] @version))
 (#eq? @_k "name")
 (#eq? @_v "version")
 (#set! fact "moleculer.version"))

; An action called through the broker: ctx.call("v1.boards.resolve"), this.broker.call("users.get"),
; ctx.broker.call(...), broker.call(...); a name with a substitution in it (`${this.fullName}.register`) names none.
((call_expression
   function: (member_expression
               object: [(identifier) @_o (member_expression property: (property_identifier) @_o)]
               property: (property_identifier) @_m)
   arguments: (arguments . [(string (string_fragment) @action) (template_string . (string_fragment) @action .)])) @fact
 (#any-of? @_o "ctx" "broker")
 (#eq? @_m "call")
 (#set! fact "moleculer.call"))

; The API gateway's routes (moleculer-web): an alias onto an action (aliases: {"GET /boards": "v1.boards.list"}) and
; the actions a route exposes (whitelist: ["v1.accounts.**", "posts.*"]).
((pair
   key: (property_identifier) @_k
   value: (object (pair value: (string (string_fragment) @action) @fact)))
 (#eq? @_k "aliases")
 (#set! fact "moleculer.call")
 (#set! via "api gateway alias"))

((pair
   key: (property_identifier) @_k
   value: (array (string (string_fragment) @action) @fact))
 (#eq? @_k "whitelist")
 (#set! fact "moleculer.call")
 (#set! via "api gateway route"))

; A gateway route publishing every action that declares a REST alias (moleculer-web's `autoAliases: true`) ...
((pair key: (property_identifier) @_k value: (true)) @fact
 (#eq? @_k "autoAliases")
 (#set! fact "moleculer.auto_aliases"))

; ... and a service declaring one (`rest: "GET /:id"` on an action, `rest: "articles/"` on the service)
((pair key: (property_identifier) @_k value: [(string) (template_string) (object) (array)]) @fact
 (#eq? @_k "rest")
 (#set! fact "moleculer.rest"))
