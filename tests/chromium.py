"""The running Chromium processes one process's pools started (they mark them with its pid), so
that a benchmark's Chromium beside the suite does not count; zombies waiting to be reaped are not
running."""

import psutil

from cogevol.browser.pool import marked_processes


def running_chromium(pid: int) -> set[int]:
    out = set()
    for p in marked_processes(f"cogevol-{pid}-"):
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out.add(p.pid)
        except psutil.NoSuchProcess:
            pass
    return out
