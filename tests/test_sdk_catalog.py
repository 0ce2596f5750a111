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
