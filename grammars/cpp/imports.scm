; #include "utils.h" and #include <thrift/Thrift.h>: the module is the included path.
((preproc_include path: (string_literal (string_content) @module)) @fact (#set! fact "import"))
((preproc_include path: (system_lib_string) @module) @fact (#set! fact "import"))
