"""Programs started by launcher scripts and process supervisors: the facts each launcher gives, and the
processes they become."""

from __future__ import annotations

from rules_harness import resolve_files

from repomodeler.extract.readers import registry


def facts_of(path: str, text: str) -> list[tuple[str, int, dict[str, str]]]:
    facts, warnings = registry.read_file("repo", path, text.encode())
    assert not warnings, warnings
    return [(f.kind, f.line, dict(f.attrs)) for f in facts if f.kind in ("program.launch", "program.command")]


def test_a_bin_script_names_the_java_class_it_starts_not_the_ones_it_greps_or_sets():
    text = ("#!/bin/sh\n# starts org.acme.broker.BrokerStartup\n"
            "if [ \"$1\" = proxy ]; then\n"
            "  sh ${HOME}/bin/runbroker.sh -Dlogback.configurationFile=$HOME/conf/x.xml org.acme.proxy.ProxyStartup $@\n"
            "else\n  sh ${HOME}/bin/runbroker.sh -Dcodec=org.acme.codec.FastCodec org.acme.broker.BrokerStartup $@\nfi\n"
            "pid=`ps ax | grep -i 'org.acme.namesrv.NamesrvStartup' | grep java`\n")
    assert facts_of("distribution/bin/mqbroker", text) == [
        ("program.launch", 4, {"java_class": "org.acme.proxy.ProxyStartup", "script": "mqbroker"}),
        ("program.launch", 6, {"java_class": "org.acme.broker.BrokerStartup", "script": "mqbroker"}),
    ]
    assert facts_of("master/src/main/bin/start.sh", "#!/bin/bash\njava $JAVA_OPTS -cp \"$CP\" org.acme.master.MasterServer\n") \
        == [("program.launch", 2, {"java_class": "org.acme.master.MasterServer", "script": "start"})]


def test_supervisord_systemd_and_s6_give_the_program_and_its_command():
    conf = ("[supervisord]\nnodaemon=true\n\n[program:consumer]\ncommand=python3 manage.py document_consumer\n"
            "user=paperless\n\n[program:celery]\ncommand = celery --app paperless worker\n  --loglevel INFO\n")
    assert facts_of("docker/supervisord.conf", conf) == [
        ("program.command", 5, {"command": "python3 manage.py document_consumer", "owner": "consumer",
                                "source": "supervisord"}),
        ("program.command", 9, {"command": "celery --app paperless worker --loglevel INFO", "owner": "celery",
                                "source": "supervisord"}),
    ]
    unit = ("[Unit]\nDescription=Paperless Celery Workers\n\n[Service]\nUser=paperless\n"
            "ExecStart=celery --app paperless worker --loglevel INFO\n\n[Install]\nWantedBy=multi-user.target\n")
    assert facts_of("scripts/paperless-task-queue.service", unit) == [
        ("program.command", 6, {"command": "celery --app paperless worker --loglevel INFO",
                                "owner": "paperless-task-queue", "source": "systemd"})]
    # a template unit (`tsdb@.service`, started as tsdb@1, tsdb@2) is named by the service it starts instances of
    template = "[Service]\nExecStart=/usr/share/tsdb/bin/tsdb tsd --port=%i\n"
    assert facts_of("build-aux/rpm/systemd/tsdb@.service", template) == [
        ("program.command", 2, {"command": "/usr/share/tsdb/bin/tsdb tsd --port=%i", "owner": "tsdb", "source": "systemd"})]
    # ... and supervisord's program files under supervisord.d/ are read as its own configuration
    included = "[program:etcd]\ncommand = /bin/etcd\n"
    assert facts_of("docker/dev/supervisord.d/etcd.ini", included) == [
        ("program.command", 2, {"command": "/bin/etcd", "owner": "etcd", "source": "supervisord"})]
    run = ("#!/command/with-contenv /usr/bin/bash\nif [[ -n \"${USER_IS_NON_ROOT}\" ]]; then\n"
           "\texec python3 manage.py document_consumer\nelse\n\texec s6-setuidgid paperless python3 manage.py document_consumer\nfi\n")
    assert facts_of("docker/rootfs/etc/s6-overlay/s6-rc.d/svc-consumer/run", run) == [
        ("program.command", 5, {"command": "python3 manage.py document_consumer", "owner": "consumer", "source": "s6"})]
    # a command continued over lines is one command, numbered by its first line
    continued = "#!/bin/bash\nexec s6-setuidgid paperless \\\n\tpython3 manage.py migrate \\\n\t--no-input\n"
    assert facts_of("docker/rootfs/etc/s6-overlay/s6-rc.d/init-migrations/run", continued) == [
        ("program.command", 2, {"command": "python3 manage.py migrate --no-input", "owner": "init-migrations",
                                "source": "s6"})]
    # s6-rc says which services run once at start-up
    lifecycle, _ = registry.read_file("repo", "docker/rootfs/etc/s6-overlay/s6-rc.d/init-migrations/type", b"oneshot\n")
    assert [(f.kind, dict(f.attrs)) for f in lifecycle] == [
        ("program.lifecycle", {"lifecycle": "oneshot", "owner": "init-migrations", "source": "s6"})]


def test_java_modules_started_by_bin_scripts_are_services_named_after_their_module():
    pom = ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>{a}</artifactId>'
           '<dependencies>{deps}</dependencies></project>')
    dep = '<dependency><groupId>org.acme</groupId><artifactId>{a}</artifactId></dependency>'
    files = {
        "pom.xml": ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>mq</artifactId>'
                    '<packaging>pom</packaging><modules><module>namesrv</module><module>broker</module>'
                    '<module>common</module><module>tools</module></modules></project>'),
        "common/pom.xml": pom.format(a="mq-common", deps=""),
        "common/src/main/java/org/acme/common/Config.java": "package org.acme.common;\n\npublic class Config {}\n",
        "namesrv/pom.xml": pom.format(a="mq-namesrv", deps=dep.format(a="mq-common")),
        "namesrv/src/main/java/org/acme/namesrv/NamesrvStartup.java": (
            "package org.acme.namesrv;\n\npublic class NamesrvStartup {\n    public static void main(String[] args) {}\n}\n"),
        "broker/pom.xml": pom.format(a="mq-broker", deps=dep.format(a="mq-common")),
        "broker/src/main/java/org/acme/broker/BrokerStartup.java": (
            "package org.acme.broker;\n\npublic class BrokerStartup {\n    public static void main(String[] args) {}\n}\n"),
        "tools/pom.xml": pom.format(a="mq-tools", deps=dep.format(a="mq-common")),
        "tools/src/main/java/org/acme/tools/AdminStartup.java": (
            "package org.acme.tools;\n\npublic class AdminStartup {\n    public static void main(String[] args) {}\n}\n"),
        "distribution/bin/mqnamesrv": "#!/bin/sh\nsh ${HOME}/bin/runserver.sh org.acme.namesrv.NamesrvStartup $@\n",
        "distribution/bin/mqbroker": "#!/bin/sh\nsh ${HOME}/bin/runbroker.sh org.acme.broker.BrokerStartup $@\n",
        "distribution/bin/mqadmin": "#!/bin/sh\nsh ${HOME}/bin/tools.sh org.acme.tools.AdminStartup \"$@\"\n",
    }
    model = resolve_files({"mq": files})
    services = {c.id: c for c in model.components.values() if c.kind == "service"}
    assert {"namesrv", "broker", "tools"} <= set(services)
    assert "mqnamesrv" in services["namesrv"].aliases and "mqadmin" in services["tools"].aliases
    assert {(e.path, e.line) for e in services["namesrv"].evidence} >= {("distribution/bin/mqnamesrv", 2)}
    assert services["broker"].attributes["main_class"] == "org.acme.broker.BrokerStartup"
    assert "common" not in services  # a module nothing starts stays what it was


def test_a_developers_procfile_and_programs_already_split_add_no_processes():
    """A goreman Procfile (`go run`, test fixtures) is how a developer runs everything at once; a
    Procfile whose programs the code split already made processes adds no copies of them."""
    files = {
        "go.mod": "module example.com/cd\n\ngo 1.22\n",
        "cmd/main.go": 'package main\n\nimport "net/http"\n\nfunc main() { http.ListenAndServe(":8080", nil) }\n',
        "Procfile": ("api-server: go run ./cmd/main.go --port 8080\n"
                     "git-server: test/fixture/testrepos/start-git.sh\nredis: hack/start-redis.sh\n"),
    }
    model = resolve_files({"cd": files})
    assert not {"api-server", "git-server", "redis"} & set(model.components)
    shop = {
        "requirements.txt": "flask\ncelery\n",
        "Procfile": ("web: gunicorn app.web:app\nweb-uploads: gunicorn -c uploads.conf.py app.web:app\n"
                     "worker: celery -A app.jobs worker\n"),
        "app/__init__.py": "",
        "app/web.py": 'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/send")\ndef send():\n    return "ok"\n',
        "app/jobs.py": 'from celery import Celery\ncelery = Celery("app", broker="redis://redis:6379/0")\n',
    }
    model = resolve_files({"mailer": shop})
    assert {"web", "worker"} <= set(model.components) and "web-uploads" not in model.components


def test_s6_run_scripts_without_exec_run_their_last_command():
    # an execline script chains into its one command; a shell script with no exec keeps its last line running
    assert facts_of("docker/etc/services.d/nginx/run", '#!/bin/execlineb -P\n\nnginx -g "daemon off;"\n') == [
        ("program.command", 3, {"command": 'nginx -g "daemon off;"', "owner": "nginx", "source": "s6"})]
    assert facts_of("docker/etc/services.d/cron/run", "#!/bin/sh\nset -e\necho start\ncrond -f\n") == [
        ("program.command", 4, {"command": "crond -f", "owner": "cron", "source": "s6"})]
    # a script that only prepares (ends in a test, a variable, a control block) starts nothing
    assert facts_of("docker/etc/services.d/prep/run", "#!/bin/sh\nmkdir -p /data\nchown app /data\n") == []
    # ... but a restart loop keeps its program running: that program is the service's process
    assert facts_of("docker/etc/services.d/loop/run", "#!/bin/sh\nwhile true; do\n  worker --once\ndone\n") == [
        ("program.command", 3, {"command": "worker --once", "owner": "loop", "source": "s6"})]


def test_s6_run_script_exec_of_a_variable_starts_the_binary_it_names():
    run = ("#!/command/with-contenv bash\nset -o errexit\n"
           "if [[ -x \"${config_path}/go2rtc\" ]]; then\n  readonly binary_path=\"${config_path}/go2rtc\"\n"
           "else\n  readonly binary_path=\"/usr/local/go2rtc/bin/go2rtc\"\nfi\n"
           "echo \"[INFO] Starting go2rtc...\"\nexec 2>&1\nexec \"${binary_path}\" -config=/dev/shm/go2rtc.yaml\n")
    assert facts_of("docker/main/rootfs/etc/s6-overlay/s6-rc.d/go2rtc/run", run) == [
        ("program.command", 10, {"command": "/usr/local/go2rtc/bin/go2rtc -config=/dev/shm/go2rtc.yaml",
                                 "owner": "go2rtc", "source": "s6"})]


def test_s6_run_script_starting_a_wrapper_script_of_the_image_names_no_program():
    # the image's own wrapper (/etc/s6-overlay/scripts/nginx) does not say what it runs: no program is read
    assert facts_of("web/rootfs/etc/s6-overlay/s6-rc.d/nginx/run",
                    "#!/command/execlineb -P\n\n/etc/s6-overlay/scripts/nginx\n") == []


def test_s6_development_branch_is_optional_and_the_restart_loop_is_the_process():
    # what a development switch starts is the developer's (a dev server, a file watcher): optional
    dev_only = "#!/bin/bash\nif [ \"$DEVELOPMENT\" = 'true' ]; then\n  exec yarn dev\nelse\n  exit 0\nfi\n"
    assert facts_of("docker/rootfs/etc/s6-overlay/s6-rc.d/frontend/run", dev_only) == [
        ("program.command", 3, {"command": "yarn dev", "owner": "frontend", "source": "s6", "optional": "DEVELOPMENT"})]
    # its else branch, a restart loop through a shell, is what the image runs
    both = ("#!/bin/bash\nif [ \"${DEVELOPMENT:-}\" = 'true' ]; then\n  exec s6-setuidgid app nodemon index.js\nelse\n"
            "  while :\n  do\n    s6-setuidgid app bash -c \"node index.js\"\n    sleep 1\n  done\nfi\n")
    assert facts_of("docker/rootfs/etc/s6-overlay/s6-rc.d/backend/run", both) == [
        ("program.command", 7, {"command": 'bash -c "node index.js"', "owner": "backend", "source": "s6"})]
