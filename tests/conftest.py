"""Settings for the whole suite (loaded before any test module is imported)."""

from hypothesis import settings

import tests.properties  # noqa: F401  (registers the profiles)

# property tests draw a share of their written counts (tests/properties.py) unless a run
# asks for another profile: ``--hypothesis-profile=long``, loaded after this
settings.load_profile("suite")
