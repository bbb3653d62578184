"""Prefect flows that drive the DVC stages in DAG order."""
