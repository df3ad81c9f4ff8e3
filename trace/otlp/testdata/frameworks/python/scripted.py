"""Helpers shared by the scenario scripts: the offline environment, so no
framework phones home or reaches a model API."""

import os


def offline():
    """Telemetry opt-outs of the frameworks, and API keys that cannot
    reach anything (the scripted models never send a request)."""
    os.environ.update({
        "OPENAI_API_KEY": "sk-offline-fixture",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OTEL_SDK_DISABLED": "false",
        "ANONYMIZED_TELEMETRY": "false",
        "AUTOGEN_DISABLE_RUNTIME_TRACING": "false",
        "HF_HUB_OFFLINE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "SMOLAGENTS_DISABLE_TELEMETRY": "1",
        "DO_NOT_TRACK": "1",
        "LOGFIRE_IGNORE_NO_CONFIG": "1",
        "STRANDS_DISABLE_TELEMETRY": "1",
    })
