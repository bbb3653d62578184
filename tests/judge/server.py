"""A real OpenAI-compatible HTTP server on 127.0.0.1 with scriptable misbehaviour.

Used by the judge tests (in a background thread) and by benchmarks/judge_client.py (in a child
process: `python -m tests.judge.server --delay 0.05 --every-429 20` prints its URL, then serves
GET /stats). Each POST /v1/chat/completions is answered by an *action*, a dict:

  {"content": "..."}            200 with that assistant content (default: responder(body))
  {"status": 429, "headers": {"Retry-After": "0.1"}, "text": "..."}
  {"raw": b"..."}                200 with this body verbatim (malformed JSON, missing choices)
  {"delay": 0.2, ...}            sleep first (combines with the above)

`script` is a list of actions for the first calls in arrival order, then `plan(n, body)` may
return one, then the default applies (`delay_s`, then the responder's content).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def last_user_text(body: dict) -> str:
    """The text of the last user message (string content or the text parts of a list)."""
    for m in reversed(body.get("messages", [])):
        if m.get("role") == "user":
            c = m.get("content")
            if isinstance(c, str):
                return c
            return "".join(p.get("text", "") for p in c if p.get("type") == "text")
    return ""


def echo(body: dict) -> str:
    return "echo:" + last_user_text(body)


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # the default 5 drops SYNs under 32 concurrent connects
    daemon_threads = True


class FakeOpenAI:
    def __init__(self, delay_s: float = 0.0, script: list[dict] | None = None,
                 plan: Callable[[int, dict], dict | None] | None = None,
                 responder: Callable[[dict], str] = echo, every_429: int = 0,
                 retry_after: str = "0.05"):
        self.delay_s, self.script = delay_s, list(script or [])
        self.plan, self.responder = plan, responder
        self.every_429, self.retry_after = every_429, retry_after
        self.lock = threading.Lock()
        self.calls = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        self.arrivals: list[float] = []
        self.statuses: dict[int, int] = {}
        outer = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers do
            disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms ACK stall

            def log_message(self, *a):
                pass

            def _send(self, status: int, data: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._send(200, json.dumps(outer.snapshot()).encode())

            def do_POST(self):
                size = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(size)
                if len(raw) < size:  # the client went away mid-request (a killed run): nothing was asked
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                with outer.lock:
                    outer.calls += 1
                    n = outer.calls
                    outer.in_flight += 1
                    outer.max_in_flight = max(outer.max_in_flight, outer.in_flight)
                    outer.bodies.append(body)
                    outer.headers.append(dict(self.headers))
                    outer.arrivals.append(time.monotonic())
                    action = outer.script.pop(0) if outer.script else None
                try:
                    if action is None and outer.plan is not None:
                        action = outer.plan(n, body)
                    if action is None and outer.every_429 and n % outer.every_429 == 0:
                        action = {"status": 429, "headers": {"Retry-After": outer.retry_after}}
                    action = dict(action or {})
                    time.sleep(action.get("delay", outer.delay_s))
                    status = action.get("status", 200)
                    with outer.lock:
                        outer.statuses[status] = outer.statuses.get(status, 0) + 1
                    if "raw" in action:
                        data = action["raw"]
                    elif status != 200:
                        err = json.dumps({"error": {"message": f"HTTP {status}"}})
                        data = action.get("text", err).encode()
                    else:
                        content = action.get("content")
                        if content is None:
                            content = outer.responder(body)
                        msg = {"role": "assistant", "content": content}
                        data = json.dumps({"id": f"c{n}", "object": "chat.completion",
                                           "choices": [{"index": 0, "finish_reason": "stop",
                                                        "message": msg}]}).encode()
                    self._send(status, data, action.get("headers"))
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)
                finally:
                    with outer.lock:
                        outer.in_flight -= 1

        self.server = _Server(("127.0.0.1", 0), H)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def snapshot(self) -> dict:
        with self.lock:
            return {"calls": self.calls, "max_in_flight": self.max_in_flight,
                    "statuses": dict(self.statuses), "arrivals": list(self.arrivals)}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--delay", type=float, default=0.05)
    ap.add_argument("--every-429", type=int, default=0)
    ap.add_argument("--retry-after", default="0.05")
    a = ap.parse_args()
    srv = FakeOpenAI(delay_s=a.delay, every_429=a.every_429, retry_after=a.retry_after)
    print(srv.url, flush=True)
    try:
        sys.stdin.read()  # serve until the parent closes our stdin
    finally:
        srv.close()


if __name__ == "__main__":
    main()
