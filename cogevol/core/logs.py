"""Logging setup shared by the CLI and the stage scripts."""

from __future__ import annotations

import logging
import os


def setup_logging(level: str | None = None) -> None:
    logging.basicConfig(
        level=(level or os.environ.get("COGEVOL_LOG_LEVEL", "INFO")).upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    for noisy in ("alembic", "urllib3", "httpx", "matplotlib", "numexpr"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
