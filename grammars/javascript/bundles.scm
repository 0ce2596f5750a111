; Entry points a bundler builds into the browser app (read only in bundler configuration files:
; vite.config.*, webpack.config.*, rollup.config.*): `build: { rollupOptions: { input: { index:
; "./app/index.tsx" } } }`, `input: "./app/index.tsx"`, `entry: "./src/main.js"`, `root: "app"`.
((pair key: [(property_identifier) (string)] @_k value: (string) @entry) @fact
 (#match? @_k "^[\"']?(entry|input|root)[\"']?$")
 (#set! only_files "(^|/)(vite|webpack|rollup|rsbuild|rspack)\\.config\\.[cm]?[jt]s$") (#set! fact "bundle.entry"))
((pair key: [(property_identifier) (string)] @_k value: (object (pair value: (string) @entry))) @fact
 (#match? @_k "^[\"']?(entry|input)[\"']?$")
 (#set! only_files "(^|/)(vite|webpack|rollup|rsbuild|rspack)\\.config\\.[cm]?[jt]s$") (#set! fact "bundle.entry"))
((pair key: [(property_identifier) (string)] @_k value: (array (string) @entry)) @fact
 (#match? @_k "^[\"']?(entry|input)[\"']?$")
 (#set! only_files "(^|/)(vite|webpack|rollup|rsbuild|rspack)\\.config\\.[cm]?[jt]s$") (#set! fact "bundle.entry"))
