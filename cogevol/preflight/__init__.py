"""The run planned before it starts (`cogevol preflight`; issue 38).

A GPU run that breaks breaks late: vLLM refuses memory on the ranks a judge already holds, a
batch that does not divide raises in the trainer, a second node runs the wrong Python. This
package resolves a profile against the hardware found or declared and says, before any heavy
work, how the run will be laid out and what stops it, each problem with the knob to change:

* the GRPO and SFT batch arithmetic for a world size is cogevol.train.batch (the trainer checks
  its own layout with it), each problem a cogevol.core.problems.Problem;
* `models`: architecture sizes of the models the profiles name (weights, KV cache per token);
* `memory`: per-GPU memory of a training rank and of each model server;
* `placement`: which GPUs the teacher, judge and rollout servers take and which train;
* `environment`: launcher, library versions and endpoints as this machine sees them;
* `plan`: all of it in one `Plan`, rendered as text or JSON; `guard` is what each training
  stage runs first.
"""

from cogevol.core.problems import Problem

__all__ = ["Problem"]
