"""A program whose name is its messaging technology's (a Kafka sink module called `kafka`) publishing with no
broker of that technology in the system: it is no broker, it is not linked to itself, and the run does not fail
(it once stopped with an internal error on such a repository)."""

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory

FILES = {
    "pom.xml": ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>kafka</artifactId>\n'
                '  <dependencies><dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-clients</artifactId>'
                '</dependency></dependencies></project>\n'),
    "Dockerfile": 'FROM eclipse-temurin:21\nCOPY target/kafka.jar /app.jar\nCMD ["java", "-jar", "/app.jar"]\n',
    "src/main/java/org/acme/sink/Sink.java": (
        "package org.acme.sink;\n\nimport org.apache.kafka.clients.producer.KafkaProducer;\n"
        "import org.apache.kafka.clients.producer.ProducerRecord;\n\npublic class Sink {\n"
        "    public static void main(String[] args) {\n"
        "        KafkaProducer<String, String> producer = new KafkaProducer<>(new java.util.Properties());\n"
        '        producer.send(new ProducerRecord<>("events", "k", "v"));\n    }\n}\n'),
}


def test_a_program_named_for_its_messaging_technology_is_not_its_own_broker() -> None:
    model = resolve_system("sink", extract_in_memory({"sink": FILES}))
    kinds = {c.id: c.kind for c in model.components.values() if c.kind != "subsystem"}
    assert kinds.get("sink") == "service"
    assert "broker" not in kinds.values()
    assert not [k for k in model.connections if k[0] == k[1]]
