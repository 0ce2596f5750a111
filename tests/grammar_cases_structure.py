"""Fixture cases for the code-structure queries (package docs, programs, subcommands, spawns, servers,
generated gRPC client types, API paths); test_grammars.py adds them to its CASES."""

from __future__ import annotations


def structure_cases(Case):  # noqa: N803 - the Case class of test_grammars
    doc = "package.doc"
    return [
        Case("go", "structure.go", (
            (doc, 3, {"doc": "// Package main runs the shop", "more": "// server and its workers.", "name": "main"}),
            ("program.main", 5, {"part": "package"}), ("program.main", 17, {"part": "func"}),
            ("code.function", 9, {"name": "RunServer"}), ("code.function", 17, {"name": "main"}),
            ("code.function", 21, {"name": "mainLoop"}),
            ("code.call", 10, {"package": "server", "function": "Serve"}),
            ("code.call", 14, {"package": "cache", "function": "Run"}),
            ("go.generate", 23, {"command": "//go:generate go run ./tagdata -output tables.go"}),
        ), absent=(("code.function", 13), ("program.main", 21), ("package.doc", 1), ("go.generate", 1),
                   ("go.build_excluded", 1))),  # (//go:build linux: built, on one platform)
        # a script kept out of the build, run with `go run build_script.go`
        Case("go", "build_script.go", (
            ("go.build_excluded", 1, {"constraint": "//go:build ignore"}),
            ("program.main", 3, {"part": "package"}), ("program.main", 5, {"part": "func"}),
        ), covers=("structure",)),
        # an empty main (a scaffolding tool's placeholder) starts nothing: the package clause only
        Case("go", "empty_main.go", (("program.main", 1, {"part": "package"}),), absent=(("program.main", 4),),
             covers=()),
        # the servers Go microservice frameworks start (go-zero's rest and zrpc, Kratos' transport http)
        Case("go", "framework_servers.go", (("server.start", 4, {"technology": "http"}),
                                            ("server.start", 5, {"technology": "grpc"}),
                                            ("server.start", 6, {"technology": "http"})),
             absent=(("server.start", 7),), covers=("processes",)),
        Case("go", "processes.go", (
            ("cli.command", 12, {"framework": "cobra", "name": "serve"}),
            ("cli.command", 12, {"framework": "cobra", "name": "serve", "handler": "RunServer"}),
            ("cli.command", 16, {"framework": "cobra", "name": "runner", "handler_package": "runner",
                                 "handler_function": "Execute"}),
            ("cli.command", 19, {"framework": "cobra", "name": "list MODEL"}),
            ("process.spawn", 21, {"arg": "runner"}), ("process.spawn", 21, {"arg": "--port"}),
            ("process.spawn", 22, {"arg": "serve"}),
            ("server.start", 24, {"technology": "grpc"}), ("server.start", 25, {"technology": "http"}),
            ("grpc.client_ref", 26, {"service": "HistoryServiceClient"}),
            ("http.call_path", 28, {"method": "MethodPost", "path": "/api/generate"}),
            ("code.client_new", 30, {"package": "api", "function": "ClientFromEnvironment"}),
            ("code.client_new", 31, {"package": "cache", "function": "NewRedisClient"}),
            ("program.finder", 35, {"function": "FindEngine", "program": "engine-server"}),
            ("process.spawn_via", 42, {"finder": "FindEngine"}),
            ("process.spawn", 42, {"arg": "--port"}),
            ("cli.command", 47, {"framework": "kingpin", "function": "registerSidecar",
                                 "name_expr": "component.Sidecar.String()", "help": "Sidecar for a Prometheus server."}),
            ("program.main_call", 53, {"callee": "registerSidecar"}),
            ("code.exported_var", 57, {"name": "PluginEntry"}), ("plugin.lookup", 62, {"name": "PluginEntry"}),
        ), absent=(("cli.command", 48), ("program.main_call", 52), ("program.main_call", 54), ("code.exported_var", 58),
                   ("program.finder", 41), ("cli.command", 20), ("process.spawn", 23), ("grpc.client_ref", 27), ("http.call_path", 29),
                   ("code.client_new", 32))),
        Case("python", "structure.py", ((doc, 1, {"doc": "Orders service: HTTP API and storage.\n\nMore words."}),),
             path="orders/__init__.py"),
        Case("python", "structure.py", (), absent=((doc, 1),), path="orders/models.py", covers=()),
        Case("python", "processes.py", (
            ("process.spawn", 7, {"arg": "shop.runner"}), ("process.spawn", 7, {"arg": "-m"}),
            ("process.spawn", 14, {"arg": "shop.worker"}), ("process.spawn", 15, {"arg": "shop"}),
            ("server.start", 11, {"technology": "http"}), ("server.start", 12, {}), ("server.start", 13, {}),
            ("server.start", 16, {"technology": "queue"}), ("server.start", 17, {"technology": "grpc"}),
            ("program.script_main", 23, {}),
            ("cli.subcommand", 27, {"handler": "worker_cmd", "name": "worker"}),
            ("cli.subcommand", 27, {"handler": "worker_cmd", "handler_function": "run_worker"}),
            ("cli.subcommand", 32, {"handler": "serve", "handler_module": "shop.api"}),
            ("cli.subcommand", 32, {"handler": "serve", "handler_package": "api"}),
        ), absent=(("process.spawn", 18), ("server.start", 19), ("program.script_main", 20), ("cli.subcommand", 10)),
            path="shop/server.py"),
        Case("javascript", "processes.js", (
            ("server.start", 5, {"technology": "http"}), ("server.start", 6, {"technology": "http"}),
            ("process.spawn", 7, {"arg": "worker.js"}), ("process.spawn", 8, {"arg": "dist/runner.js"}),
            ("server.start", 9, {"technology": "queue"}), ("server.start", 10, {}), ("server.start", 11, {}),
        ), absent=(("server.start", 12), ("server.start", 13))),
        # a program waiting to be told to stop (SIGTERM) runs until then: a daemon
        Case("go", "awaits_stop.go", (("process.awaits_stop", 11, {}),), absent=(("process.awaits_stop", 13),),
             covers=("processes",)),
        Case("python", "awaits_stop.py", (
            ("process.awaits_stop", 9, {}), ("process.spawn", 11, {"template": "service/{name}/main.py"}),
        ), absent=(("process.awaits_stop", 10),), covers=("processes",)),
        Case("javascript", "awaits_stop.js", (("process.awaits_stop", 4, {}),), absent=(("process.awaits_stop", 5),),
             covers=("processes",)),
        Case("java", "structure.java", ((doc, 1, {"doc": "/**\n * Billing: invoices and payments.\n */"}),),
             path="src/main/java/com/acme/billing/package-info.java"),
        Case("java", "processes.java", (("program.java_main", 4, {"class": "NamesrvStartup"}),),
             absent=(("program.java_main", 8), ("program.java_main", 11))),
        Case("rust", "structure.rs", ((doc, 1, {"doc": " The storage engine.\n"}),), absent=((doc, 5),),
             path="src/lib.rs"),
    ]
