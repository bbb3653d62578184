"""The one base of every error cogevol raises on purpose.

`except CogevolError` catches what the project reports (a malformed suite, a scoring service
that refuses, an endpoint that stayed unreachable) and nothing that is a bug. Each error also
keeps its builtin base (ValueError for bad input, RuntimeError for a failing service), so
existing `except ValueError` handlers still work.
"""


class CogevolError(Exception):
    """Base of the project's errors (tests/test_import_graph.py checks each derives from it)."""
