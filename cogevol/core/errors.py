"""The one base of every error cogevol raises on purpose.

`except CogevolError` catches what the project reports (a malformed suite, a scoring service
that refuses, an endpoint that stayed unreachable) and nothing that is a bug. Each error also
keeps its builtin base (ValueError for bad input, RuntimeError for a failing service), so
existing `except ValueError` handlers still work.
"""


class CogevolError(Exception):
    """Base of the project's errors (tests/test_import_graph.py checks each derives from it)."""


class InputError(CogevolError, ValueError):
    """An input as a whole cannot be used: a missing path, no readable file, no record with the
    field asked for. (A single bad record is no error: it is quarantined with its reason.)"""
