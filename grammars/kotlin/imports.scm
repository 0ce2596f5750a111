; import a.b.C / import a.b.* / import a.b.C as D: the module is the qualified name.
((import (qualified_identifier) @module) @fact (#set! fact "import"))
