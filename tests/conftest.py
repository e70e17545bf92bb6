"""Test configuration: hypothesis profiles and the --runslow switch.

The default profile, ``ci``, is derandomized with a bounded number of examples, so a green
run stays green. Explore locally with ``HYPOTHESIS_PROFILE=explore pytest``.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=15, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])
settings.register_profile(
    "explore", max_examples=300, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="run exhaustive slow tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    marker = pytest.mark.skip(reason="exhaustive run; use --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(marker)
