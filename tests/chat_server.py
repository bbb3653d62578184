"""A real local OpenAI-compatible chat server for tests: it stands in for a teacher, judge or
planner endpoint. `reply(body, n)` decides each answer: (HTTP status, assistant content) for the
n-th request (1-based); every request body is kept in `bodies`."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChatServer:
    def __init__(self, reply: Callable[[dict, int], tuple[int, str]]):
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.bodies.append(body)
                outer.headers.append(dict(self.headers))
                status, content = reply(body, len(outer.bodies))
                data = b"" if status != 200 else json.dumps(
                    {"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
                self.send_response(status)
                if data:
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    @property
    def calls(self) -> int:
        return len(self.bodies)

    def close(self) -> None:
        self.server.shutdown()
