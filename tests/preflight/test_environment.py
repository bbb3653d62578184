import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cogevol.preflight.environment import Endpoint, Launcher, hosts, launch_line, launcher_problems


def test_launch_lines_parse_to_ranks_and_nodes(tmp_path):
    assert Launcher.parse("deepspeed --num_gpus 8 --no_python --no_local_rank").processes == 8
    assert Launcher.parse("deepspeed --include localhost:0,1,2 --no_python").processes == 3
    t = Launcher.parse("torchrun --nnodes 2 --nproc_per_node 8 --no-python")
    assert (t.kind, t.nodes, t.processes) == ("torchrun", 2, 16) and "no_python" in t.flags
    assert Launcher.parse("accelerate launch --num_processes 4 --no_python").processes == 4
    hf = tmp_path / "hostfile"
    hf.write_text("# two nodes\nnode1 slots=7\nnode2 slots=7\n")
    assert hosts(hf) == {"node1": 7, "node2": 7}
    d = Launcher.parse(f"deepspeed --hostfile {hf} --no_python --no_local_rank")
    assert d.nodes == 2 and d.hostfile == str(hf)


def test_the_launch_line_a_layout_needs():
    assert launch_line(1, 1, [0], 1) == ""
    assert launch_line(8, 1, list(range(8)), 8).endswith("--num_gpus 8")
    assert "--include localhost:0,1,2,3,4,5,6" in launch_line(7, 1, list(range(7)), 8)
    two = launch_line(7, 2, list(range(7)), 8)
    assert "--hostfile infra/hosts/hostfile" in two and "--venv_script" in two


def knobs(problems):
    return [p.knob for p in problems]


def test_launcher_problems_name_what_breaks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert knobs(launcher_problems(Launcher.parse(""), 8, 1)) == ["COGEVOL_LAUNCH"]  # one GPU of 8
    assert launcher_problems(Launcher.parse(""), 1, 1) == []
    multi = launcher_problems(Launcher.parse("torchrun --nnodes 2 --nproc_per_node 8 --no-python"), 16, 2)
    assert any("every node" in p.why for p in multi)
    (tmp_path / "infra/deepspeed").mkdir(parents=True)
    (tmp_path / "infra/deepspeed/hostfile").write_text("a slots=8\nb slots=8\n")
    inside = launcher_problems(
        Launcher.parse("deepspeed --hostfile infra/deepspeed/hostfile --no_python --no_local_rank"), 14, 2, 7
    )
    whys = " ".join(p.why for p in inside)
    assert "rerun all training" in whys and "bare `python`" in whys and "slots=7" in whys
    missing = launcher_problems(
        Launcher.parse("deepspeed --hostfile nowhere --no_python --no_local_rank --venv_script x"), 14, 2
    )
    assert any("only warn and train on one node" in p.why for p in missing)
    assert any("launcher starts 8 processes but the plan has 7" in p.why for p in
               launcher_problems(Launcher.parse("deepspeed --num_gpus 8 --no_python --no_local_rank"), 7, 1))


@pytest.fixture()
def models_server():
    served = {"ids": ["Qwen/Qwen3-32B"], "paths": []}

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            served["paths"].append(self.path)
            body = json.dumps({"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "vllm"} for m in served["ids"]]}).encode()
            self.send_response(200 if self.path.endswith("/models") else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1", served
    srv.shutdown()


def test_endpoints_are_checked_for_the_model_they_serve(models_server):
    url, served = models_server
    assert Endpoint("teacher", url, "Qwen/Qwen3-32B", knob="t").check() is None
    wrong = Endpoint("teacher", url, "Qwen/Qwen3-8B", knob="distill.teachers[0].base_url").check()
    assert wrong.knob == "distill.teachers[0].base_url" and "Qwen3-32B" in wrong.why
    assert "HTTP 404" in Endpoint("rollout", url, None, path="/health/").check().why
    down = Endpoint("judge", "http://127.0.0.1:9/v1", "m", knob="judge.base_url").check(timeout=1)
    assert down.knob == "judge.base_url" and "not reachable" in down.why
