; Code structure: a package's documentation (its purpose line in the model's subsystems).

; /** Billing: invoices and payments. */ package com.acme.billing;   in package-info.java
((block_comment) @doc @fact . (package_declaration)
 (#match? @doc "^/\\*\\*")
 (#set! fact "package.doc") (#set! only_files "(^|/)package-info\\.java$"))
