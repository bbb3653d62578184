"""Admissibility filtering on the seven Cookie-Bench axes (rules, optional LLM judge)."""
