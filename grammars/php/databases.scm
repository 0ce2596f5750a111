; PDO connections: the data source name names the driver (`new PDO('sqlite:' . $path)`, `new \PDO("mysql:host=db")`,
; PHP 8.4's `new \PDO\Sqlite(...)`): the database engine the program uses, see repomodeler/graph/local_services.py
; (the name may be built by concatenation: its leftmost string, up to three concatenations deep)
((object_creation_expression
   [(name) (qualified_name)] @_cls
   (arguments . (argument [(string (string_content) @dsn)
                           (encapsed_string (string_content) @dsn)
                           (binary_expression left: [(string (string_content) @dsn) (encapsed_string (string_content) @dsn)])
                           (binary_expression left: (binary_expression
                             left: [(string (string_content) @dsn) (encapsed_string (string_content) @dsn)]))
                           (binary_expression left: (binary_expression left: (binary_expression
                             left: [(string (string_content) @dsn) (encapsed_string (string_content) @dsn)])))]))) @fact
 (#match? @_cls "(^|\\\\)PDO(\\\\[A-Za-z]+)?$")
 (#set! fact "sql.dsn"))
; A PDO data source name written as a template (`sprintf('mysql:host=%s;dbname=%s', ...)`, `"pgsql:host=$host;dbname=$db"`)
; and handed to PDO later: the driver prefix before `host=`/`dbname=`/`unix_socket=` names the engine all the same
((function_call_expression
   function: (name) @_fn
   arguments: (arguments . (argument [(string (string_content) @dsn) (encapsed_string (string_content) @dsn)]))) @fact
 (#match? @_fn "^v?sprintf$")
 (#match? @dsn "^(mysql|pgsql|sqlsrv|dblib|oci|firebird):(host|dbname|unix_socket|server|Server)=")
 (#set! fact "sql.dsn"))
((assignment_expression
   right: [(string (string_content) @dsn) (encapsed_string . (string_content) @dsn)]) @fact
 (#match? @dsn "^(mysql|pgsql|sqlsrv|dblib|oci|firebird):(host|dbname|unix_socket|server|Server)=")
 (#set! fact "sql.dsn"))
; ... or built by concatenation wherever it is (`return 'mysql:host=' . $this->host . ';dbname=' . $this->dbname;` in
; a database class's method, phpIPAM's): the leftmost string of the concatenation names the driver
((binary_expression
   left: [(string (string_content) @dsn) (encapsed_string . (string_content) @dsn)]) @fact
 (#match? @dsn "^(mysql|pgsql|sqlsrv|dblib|oci|firebird):(host|dbname|unix_socket|server|Server)=")
 (#set! fact "sql.dsn"))
; A database driver named in a configuration array by Doctrine's or mysqli's name (`'db_driver' => 'pdo_mysql'`,
; `'driver' => 'pdo_pgsql'`): the engine the application's settings pick
((array_element_initializer
   . (string (string_content) @_key)
   . (string (string_content) @dsn)) @fact
 (#match? @_key "(^|_)driver$")
 (#match? @dsn "^(pdo_(mysql|pgsql|sqlite|sqlsrv)|mysqli)$")
 (#set! fact "sql.dsn"))
; PHP's own SQLite and MySQL classes (`new SQLite3($databaseFile)`, `new mysqli($host, ...)`): the engine by the class
((object_creation_expression
   [(name) (qualified_name)] @dsn) @fact
 (#match? @dsn "^\\\\?(SQLite3|mysqli)$")
 (#set! fact "sql.dsn"))
; PHP's procedural MySQL and PostgreSQL functions (`mysqli_init()`, `mysqli_connect($host, ...)`, `pg_connect("host=db")`):
; the engine by the function's name, as in osTicket's include/mysqli.php
((function_call_expression
   function: (name) @dsn) @fact
 (#match? @dsn "^(mysqli_(init|connect|real_connect)|mysql_p?connect|pg_p?connect)$")
 (#set! fact "sql.dsn"))
