"""Which command-line arguments are addresses of another program (graph/command_addresses.py)."""

from repomodeler.graph.command_addresses import argument_addresses


def test_flag_values_in_every_form() -> None:
    assert argument_addresses("hbbs -r relay.example.com:21117 -k _") == [("-r", "relay.example.com:21117")]
    assert argument_addresses("proxy --upstream=http://api:8000 --other x") == [("--upstream", "http://api:8000")]
    assert argument_addresses("reader --peer reader_service:5003") == [("--peer", "reader_service:5003")]


def test_listen_addresses_numbers_and_words_are_not_addresses() -> None:
    assert argument_addresses("gunicorn -b 0.0.0.0:8000 -w 4 app:app") == []
    assert argument_addresses("server --log-level info --timeout 30") == []


def test_a_shell_script_is_read_and_waited_for_hosts_are_left_out() -> None:
    got = argument_addresses('sh -c "wait-for-it db:5432 -- node server.js --api http://api:80"')
    assert got == [("--api", "http://api:80")]
    assert argument_addresses("dockerize -wait tcp://db:5432 -timeout 60s") == []


def test_unbalanced_quotes_never_raise() -> None:
    assert [v for _f, v in argument_addresses('run "--to http://a:1')] == ["http://a:1"]


def test_hosts_a_start_up_loop_probes_are_left_out() -> None:
    command = ('"while ! curl -s http://config:8888/health > /dev/null; do echo Waiting; sleep 5; done; '
               'java -jar app.jar --peer=http://cfg:8888"')
    assert argument_addresses(command) == [("--peer", "http://cfg:8888")]


def test_a_flag_named_for_a_peers_host_names_it_alone() -> None:
    assert argument_addresses("worker --master-host master --master-port 8086 --http-host 0.0.0.0") == [
        ("--master-host", "master")]
    assert argument_addresses("api --db-address db --log-level info") == [("--db-address", "db")]
    assert argument_addresses("api --host api --name orders") == []  # (a short, generic flag: not a peer's)
