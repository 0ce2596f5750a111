"""The hosted services a client library stands for (rule code.sdk-services)."""

import pytest

from repomodeler.graph.catalog import sdk_service


@pytest.mark.parametrize("module, host", [
    ("firebase.google.com/go/v4/messaging", "fcm.googleapis.com"),
    ("firebase_admin.messaging", "fcm.googleapis.com"),
    ("resend", "api.resend.com"),
    ("@slack/web-api", "slack.com"),
    ("slack_sdk.web", "slack.com"),
    ("@google/generative-ai", "generativelanguage.googleapis.com"),
    ("@supabase/supabase-js", "supabase.co"),
    ("stripe", "api.stripe.com"),
    ("@aws-sdk/client-s3", "s3.amazonaws.com"),
])
def test_client_library_names_its_service(module, host):
    assert sdk_service(module)[0] == host


@pytest.mark.parametrize("module", ["firebase.google.com/go/v4", "slack-notify-helper", "express", "resend-mail-fake"])
def test_other_modules_name_no_service(module):
    assert sdk_service(module) is None


def test_kafka_clients_known_by_their_module() -> None:
    """A consumer group's client (sarama-cluster), Confluent's and franz-go's Go clients and the librdkafka
    bindings are Kafka's: their imports say which broker the messaging rules and the driver rules read."""
    from repomodeler.graph.catalog import tech_for_module

    for module in ("github.com/bsm/sarama-cluster", "github.com/confluentinc/confluent-kafka-go/v2/kafka",
                   "github.com/confluentinc/confluent-kafka-go/kafka", "github.com/twmb/franz-go/pkg/kgo",
                   "node-rdkafka", "@confluentinc/kafka-javascript"):
        assert tech_for_module(module) == "kafka", module
    assert tech_for_module("github.com/bsm/redislock") != "kafka"


def test_go_and_node_database_clients_name_their_database():
    """Go's community MongoDB driver mgo and pg-promise are their database's clients; GORM's dialect packages
    (v2's and v1's) are SQL drivers of their engine; GORM itself names no database."""
    from repomodeler.graph.catalog import tech_for_module
    from repomodeler.graph.local_services import SQL_DRIVERS

    expected = {"pg-promise": "postgres", "gopkg.in/mgo.v2": "mongodb", "gopkg.in/mgo.v2/bson": "mongodb",
                "github.com/globalsign/mgo": "mongodb"}
    assert {m: tech_for_module(m) for m in expected} == expected
    assert tech_for_module("gorm.io/gorm") is None

    def engine(module: str) -> str | None:
        return next((tech for pattern, tech in SQL_DRIVERS if pattern.match(module)), None)

    dialects = {"gorm.io/driver/postgres": "postgres", "github.com/jinzhu/gorm/dialects/postgres": "postgres",
                "github.com/jinzhu/gorm/dialects/mysql": "mysql", "github.com/jinzhu/gorm/dialects/mssql": "sqlserver",
                "github.com/jinzhu/gorm/dialects/sqlite": "sqlite"}
    assert {m: engine(m) for m in dialects} == dialects
    assert engine("github.com/jinzhu/gorm") is None


def test_hosted_api_clients_name_their_service():
    """Official clients of hosted APIs (language models, vector search, auth, payments, mail, realtime, GitHub's
    API) name the service a program importing them calls; a name merely like one does not."""
    from repomodeler.graph.catalog import sdk_service

    expected = {"cohere": "api.cohere.com", "groq-sdk": "api.groq.com",
                "@pinecone-database/pinecone": "pinecone.io", "@clerk/nextjs": "clerk.com",
                "braintree": "api.braintreegateway.com", "@paddle/paddle-node-sdk": "api.paddle.com",
                "@mollie/api-client": "api.mollie.com", "@getbrevo/brevo": "api.brevo.com",
                "@mailchimp/mailchimp_marketing": "api.mailchimp.com", "com.pusher.rest": "api.pusherapp.com",
                "@octokit/rest": "api.github.com", "github.com/google/go-github/v60/github": "api.github.com"}
    assert {m: (sdk_service(m) or ("",))[0] for m in expected} == expected
    # (a project's own module named like a hosted service, Rust's `mod replicate;`, a `pusher.py`, is not its client)
    assert sdk_service("replicate") is None and sdk_service("pusher") is None and sdk_service("@clerk/shared") is None
