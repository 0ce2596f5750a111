; using System.Net.Http; / using static X.Y; / using Alias = X.Y;  (the namespace is the last name)
((using_directive [(qualified_name) (identifier)] @module .) @fact (#set! fact "import"))
