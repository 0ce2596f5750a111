"""Knative Eventing: brokers, triggers, event sources and Kafka sinks as the components events pass through.

Why: a system built on Knative Eventing wires its services in YAML, not in code: a ``Trigger`` subscribes a service
to a ``Broker``, a ``KafkaSource`` reads topics of a Kafka cluster and sends the events to its sink (a broker or a
service), a ``KafkaSink`` writes what is posted to it to a topic.  The services' code only posts CloudEvents to an
address.  Drawn as Knative runs them: the broker a component (``default-broker``), each source a component reading
the Kafka cluster and sending to its sink, the Kafka sinks one component, the ``kafka-sink-ingress`` Service of the
``knative-eventing`` namespace that serves every KafkaSink, and a subscribed service a consumer of its broker.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Fact

# The Service Knative's Kafka data plane serves every KafkaSink at (`kafka-sink-ingress.knative-eventing.svc`).
KAFKA_SINK_INGRESS = "kafka-sink-ingress"
# Event sources: programs Knative runs that read a system and send what they read to their sink.
SOURCE_KINDS = frozenset({"KafkaSource", "PingSource", "ApiServerSource", "ContainerSource"})
# A Strimzi Kafka cluster's bootstrap Service (`my-cluster-kafka-bootstrap.kafka:9092`): the cluster `my-cluster`.
STRIMZI_BOOTSTRAP = re.compile(r"^([a-z0-9][a-z0-9-]*?)-kafka-(bootstrap|brokers)(\.[a-z0-9.-]+)?$")


class KnativeRules(ResolverBase):
    """``kubernetes.knative-eventing``."""

    def knative_eventing(self) -> None:
        facts = sorted(self.by_kind["knative.eventing"], key=Fact.order)
        if not facts:
            return
        brokers: dict[str, str] = {}  # broker name -> component
        for f in facts:
            if f.get("kind") == "Broker":
                name = f.get("name") or ""
                cid = name if "broker" in name.lower() else f"{name}-broker"
                brokers[name.lower()] = self.add_component(
                    cid, "broker", f.repository, f.evidence, (name,),
                    attributes={"technology": "knative-broker", "broker_class": f.get("broker_class") or ""}).id
        sinks = [f for f in facts if f.get("kind") == "KafkaSink"]
        sink = None
        if sinks:
            sink = self.add_component(KAFKA_SINK_INGRESS, "service", sinks[0].repository, sinks[0].evidence,
                                      tuple(sorted({f.get("name") or "" for f in sinks} - {""})),
                                      attributes={"role": "Knative's Kafka sink ingress, writing what it is sent to Kafka"}).id
            for f in sinks:
                self._to_kafka(sink, f)
        for f in facts:
            kind = f.get("kind") or ""
            if kind in SOURCE_KINDS:
                source = self.add_component(f.get("name") or kind.lower(), "service", f.repository, f.evidence,
                                            attributes={"role": f"Knative {kind}"}).id
                self._to_kafka(source, f)
                target = self._referenced(f, brokers)
                if target is not None and target != source:
                    self.connect(source, target, "http", [f.evidence], attributes={"via": f"{kind} sink"})
            elif kind == "Trigger":
                broker = brokers.get((f.get("broker") or "default").lower())
                subscriber = self._referenced(f, brokers)
                if broker is not None and subscriber is not None and subscriber != broker:
                    # the subscriber consumes the broker's events (Knative pushes them to it: the trigger's filter)
                    self.connect(subscriber, broker, "http", [f.evidence], kind="uses",
                                 attributes={"via": f"trigger {f.get('name')}"})

    def _referenced(self, f: Fact, brokers: dict[str, str]) -> str | None:
        """The component a sink or subscriber reference names: a broker of the system, or a (Knative) Service."""
        ref, kind = (f.get("ref") or "").lower(), f.get("ref_kind") or ""
        if not ref:
            return None
        if kind == "Broker":
            return brokers.get(ref)
        return self.alias.get(ref)

    def _to_kafka(self, cid: str, f: Fact) -> None:
        """Connect `cid` to the Kafka cluster its bootstrap servers name (Strimzi's `<cluster>-kafka-bootstrap`)."""
        for server in sorted({s.strip() for s in (f.get("servers") or "").split(",") if s.strip()}):
            host = server.rsplit(":", 1)[0].lower()
            target = self.alias.get(host) or self.alias.get(host.split(".")[0])
            m = STRIMZI_BOOTSTRAP.match(host)
            if target is None and m is not None:
                cluster = m.group(1)
                target = self.alias.get(cluster) or self.add_component(
                    cluster, "broker", None, f.evidence, (host.split(".")[0],),
                    attributes={"technology": "kafka", "host": host}).id
            if target is not None and target != cid:
                self.connect(cid, target, "kafka", [f.evidence],
                             attributes={"via": "bootstrap servers", "topics": f.get("topics") or ""})
