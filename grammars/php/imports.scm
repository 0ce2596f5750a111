; use App\Models\Order; / use GuzzleHttp\{Client, Psr7}; : the namespace path.
((namespace_use_declaration (namespace_use_clause [(qualified_name) (name)] @module)) @fact (#set! fact "import"))
((namespace_use_declaration (namespace_name) @module) @fact (#set! fact "import"))
; require 'vendor/autoload.php'; / require_once / include
([(require_expression (string (string_content) @module))
  (require_once_expression (string (string_content) @module))
  (include_expression (string (string_content) @module))
  (include_once_expression (string (string_content) @module))] @fact
 (#set! fact "import"))
