"""Rules of the docs group (what a project's own documents say it is); each one's fixture cases are in
cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="docs.product-peers",
        message=("A project whose README opens by saying what it is names the peers such a product reaches, outside "
                 "the system: a reverse proxy, API gateway or ingress controller forwards to upstream services (a "
                 "tunnel exposing a network behind a NAT, to local services), unless it already forwards to a service "
                 "of the system; a DNS server or resolver to upstream DNS servers; a feed reader fetches feed sources; "
                 "a BitTorrent client reaches the swarm's peers, trackers and the DHT network (a DHT crawler, the DHT); "
                 "each of its own programs the user reaches (or the server behind the web app the user opens) "
                 "reaches them"),
        unit="product_peers",
        reads=("project.summary",),
        writes=("components", "connections"),
        after=("frontdoor.entry-points", "process.supervised", "process.one-container"),
        state=(),
    ),
)
