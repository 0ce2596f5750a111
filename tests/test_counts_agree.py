"""Issue 27, point 3: one count everywhere. For three models (the shop, node-python and
spring-cloud samples: subsystems, logical databases, libraries) the numbers of components,
connections and subsystems read from the CLI summary, `gallery build`, model.json's stats, the
gallery card, the explorer's status bar, its Components tab and the sums of its kind and protocol
filters are the same (repomodeler/model/counts.py and drill.js tally, one rule)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, open_explorer  # noqa: F401 - the fixture is used by name
from test_viewer_firsthour import new_page

from conftest import SAMPLES
from repomodeler.serve.background import background_server

pytestmark = [pytest.mark.browser]

SYSTEMS = ["shop", "node-python", "spring-cloud"]
ABOUT = {"shop": "Four services, PostgreSQL, Redis, RabbitMQ", "node-python": "Express, NestJS, FastAPI, Django",
         "spring-cloud": "Spring Boot with Eureka and Kafka"}


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "repomodeler", *args], cwd=cwd, capture_output=True, text=True,
                          env=os.environ.copy(), timeout=600)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """The models, and per system the figures `gallery build` and the CLI summary printed."""
    tmp = tmp_path_factory.mktemp("counts")
    home = tmp / "rmhome"
    os.environ["REPOMODELER_HOME"] = str(home)  # module scope: the autouse fixture sets it per test only
    listing = tmp / "list.yml"
    listing.write_text("systems:\n" + "".join(f"  - name: {s}\n    about: {ABOUT[s]}\n    repositories:\n"
                                             f"      - path: {SAMPLES / s}\n" for s in SYSTEMS))
    done = cli(tmp, "gallery", "build", str(listing), "--models", "models", "--no-validate")
    from_build = {}
    for line in done.stderr.splitlines():
        m = re.match(r"\[\d/3\] (\S+): (\d+) components, (\d+) connections(?: \((\d+) subsystems\))? in", line)
        if m:
            from_build[m.group(1)] = {"components": int(m.group(2)), "connections": int(m.group(3)),
                                      "subsystems": int(m.group(4) or 0)}
    from_cli = {}
    for s in SYSTEMS:
        out = cli(tmp, "analyze", str(SAMPLES / s), "--name", s, "--out", f"models/{s}", "--no-validate").stdout
        subs = re.search(r"^subsystems: (\d+) in", out, re.M)
        from_cli[s] = {"components": int(re.search(r"^components: (\d+)", out, re.M).group(1)),
                       "connections": int(re.search(r"^connections: (\d+)", out, re.M).group(1)),
                       "subsystems": int(subs.group(1)) if subs else 0}
    return tmp / "models", from_build, from_cli


@pytest.fixture(scope="module")
def base(built: tuple[Path, Any, Any]) -> Iterator[str]:
    with background_server(built[0]) as url:
        yield url


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def numbers(text: str, what: str) -> tuple[int, int]:
    """'5 of 9 components' -> (5, 9)."""
    m = re.search(r"(\d+) of (\d+) " + what, text)
    assert m, (what, text)
    return int(m.group(1)), int(m.group(2))


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_place_shows_the_same_numbers(desk: Any, base: str, built: tuple[Path, Any, Any], system: str) -> None:
    models, from_build, from_cli = built
    stats = json.loads((models / system / "model.json").read_text())["stats"]
    expected = {"components": stats["components"], "connections": stats["connections"],
                "subsystems": stats.get("subsystems", 0)}
    assert expected["subsystems"] and stats.get("databases"), stats  # parts inside components are there to miscount
    assert from_build[system] == expected
    assert from_cli[system] == expected

    page = desk
    page.goto(base + "/")
    card = page.locator(f"a.card[data-name='{system}']")
    counts = dict(zip(card.locator(".counts dt").all_inner_texts(), map(int, card.locator(".counts dd").all_inner_texts())))
    assert counts["components"] == expected["components"] and counts["connections"] == expected["connections"]
    assert int(card.locator(".card-parts [data-count='subsystems']").inner_text()) == expected["subsystems"]
    assert int(card.locator(".card-parts [data-count='databases']").inner_text()) == stats["databases"]

    open_explorer(page, f"{base}/models/{system}")
    from test_viewer_firsthour import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"counts-{system}.png"))
    status = page.inner_text("#status")
    assert numbers(status, "components") == (expected["components"],) * 2, status
    assert numbers(status, "connections") == (expected["connections"],) * 2, status
    if expected["subsystems"]:
        assert f"{expected['subsystems']} subsystem" in status

    def facet_sum(facet: str, parts: bool = False) -> int:
        sel = f"#{facet} .n.parts" if parts else f"#{facet} .n:not(.parts)"
        return sum(int(t.lstrip("+")) for t in page.locator(sel).all_inner_texts())

    assert facet_sum("f-kind") == expected["components"]
    assert facet_sum("f-repository") == expected["components"] and facet_sum("f-language") == expected["components"]
    assert facet_sum("f-protocol") == expected["connections"]
    assert facet_sum("f-kind", parts=True) == expected["subsystems"] + stats.get("databases", 0)
    assert facet_sum("f-protocol", parts=True) == stats.get("subsystem_links", 0) + stats.get("database_links", 0)

    page.click("#tab-list")
    page.wait_for_selector("#complist-count")
    tab = page.inner_text("#complist-count")
    assert numbers(tab, "components") == (expected["components"],) * 2, tab
    if expected["subsystems"]:
        assert numbers(tab, "subsystem") == (expected["subsystems"],) * 2, tab
    # a protocol filter's count is what it draws: unchecking it hides exactly that many connections
    proto, n = page.evaluate("""() => { const l = Array.from(document.querySelectorAll('#f-protocol label'))
        .find(x => x.querySelector('.n:not(.parts)'));
        return [l.querySelector('input').dataset.value, +l.querySelector('.n:not(.parts)').textContent]; }""")
    page.click("#tab-graph")
    page.uncheck(f"#f-protocol input[data-value='{proto}']")
    deadline = time.time() + 10
    while numbers(page.inner_text("#status"), "connections")[0] != expected["connections"] - n:
        assert time.time() < deadline, (proto, n, page.inner_text("#status"))
        time.sleep(0.05)


def test_gallery_cards_show_about_and_the_filter_finds_components_and_technologies(desk: Any, base: str,
                                                                                   built: tuple[Path, Any, Any]) -> None:
    models = built[0]
    page = desk
    page.goto(base + "/")
    for system in SYSTEMS:
        assert page.inner_text(f"a.card[data-name='{system}'] .card-about") == ABOUT[system]

    def shown() -> set[str]:
        return set(page.eval_on_selector_all("a.card:not(.hidden)", "cs => cs.map(c => c.dataset.name)"))

    def having(test: Any) -> set[str]:
        out = set()
        for system in SYSTEMS:
            nodes = json.loads((models / system / "model.json").read_text())["nodes"]
            if any(test(n) for n in nodes):
                out.add(system)
        return out

    # a component name, a subsystem's, a technology, a phrase of the about line
    for term, expect in [("notifier", having(lambda n: n["name"] == "notifier")),
                         ("config-server", {"spring-cloud"}),
                         ("kafka", having(lambda n: "kafka" in (n["attributes"].get("technology") or "") or n["name"] == "kafka")),
                         ("rabbitmq", having(lambda n: n["attributes"].get("technology") == "rabbitmq")),
                         ("fastapi", {"node-python"})]:
        page.fill("#gallery-search", term)
        deadline = time.time() + 5
        while shown() != expect:
            assert time.time() < deadline, (term, shown(), expect)
            time.sleep(0.05)
        assert expect, term
    sub = next(n for n in json.loads((models / "spring-cloud" / "model.json").read_text())["nodes"] if n.get("parent"))
    page.fill("#gallery-search", sub["name"].lower())
    time.sleep(0.2)
    assert "spring-cloud" in shown()
    from test_viewer_firsthour import axe_serious

    page.fill("#gallery-search", "")
    assert axe_serious(page, base) == []
