"""Batch arithmetic of the training stages for a world size.

GRPO (TRL): one optimizer step must see requests_per_step whole groups of num_generations
completions. Each rank takes per_device_batch_size completions per micro-batch, so

    requests_per_step * num_generations = per_device_batch_size * world_size * accumulation

and the accumulation is derived from the rest. When it is not a whole number the layout is
refused, naming the values of requests_per_step (or per_device_batch_size) that would divide:
a silent change of the recipe's batch would change what is trained. SFT accumulates a fixed
number of micro-batches, so its effective batch grows with the world size; the plan says how much.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from math import gcd

from cogevol.core.problems import Problem


@dataclass
class GRPOBatch:
    requests_per_step: int
    num_generations: int
    per_device_batch_size: int
    world_size: int
    gradient_accumulation_steps: int = 0  # derived; 0 when the layout is refused
    completions_per_step: int = 0
    problems: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("problems")
        d.pop("world_size")
        return d


def _multiples(step: int, near: int, n: int = 3) -> list[int]:
    """The n multiples of step nearest to near (at least step)."""
    k = max(1, round(near / step))
    return sorted({step * j for j in range(max(1, k - 1), k + n)})[:n]


def grpo_batch(
    requests_per_step: int,
    num_generations: int,
    per_device_batch_size: int | None,
    world_size: int,
) -> GRPOBatch:
    """The derived accumulation for this layout, or the problems that refuse it.
    per_device_batch_size None: each rank takes its whole share of the step in one micro-batch."""
    total = requests_per_step * num_generations
    if per_device_batch_size is None:
        per_device_batch_size = max(1, total // max(world_size, 1))
    out = GRPOBatch(requests_per_step, num_generations, per_device_batch_size, world_size)
    out.completions_per_step = total
    if min(requests_per_step, num_generations, per_device_batch_size, world_size) < 1:
        out.problems.append(
            Problem("grpo.requests_per_step", f"batch values must be >= 1 (got {out.to_dict()})")
        )
        return out
    if num_generations < 2:
        out.problems.append(
            Problem("grpo.num_generations", "a group needs at least 2 completions to compare")
        )
    micro = per_device_batch_size * world_size
    if total % micro:
        # requests_per_step must be a multiple of micro / gcd(micro, G)
        step = micro // gcd(micro, num_generations)
        sizes = [b for b in range(1, per_device_batch_size + 1) if total % (b * world_size) == 0]
        alt = (
            f", or grpo.per_device_batch_size {sizes[-1]}"
            if sizes
            else " (no per_device_batch_size divides it on this many ranks)"
        )
        out.problems.append(
            Problem(
                "grpo.requests_per_step",
                f"{requests_per_step} requests x {num_generations} generations = {total} "
                f"completions do not split over {world_size} ranks x {per_device_batch_size} "
                f"per micro-batch; use requests_per_step "
                f"{' or '.join(map(str, _multiples(step, requests_per_step)))}{alt}",
            )
        )
        return out
    out.gradient_accumulation_steps = total // micro
    return out


@dataclass
class SFTBatch:
    per_device_batch_size: int
    gradient_accumulation_steps: int
    world_size: int
    max_length: int

    @property
    def blocks_per_step(self) -> int:
        return self.per_device_batch_size * self.gradient_accumulation_steps * self.world_size

    def to_dict(self) -> dict:
        return {
            "per_device_batch_size": self.per_device_batch_size,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
            "blocks_per_step": self.blocks_per_step,
            "tokens_per_step": self.blocks_per_step * self.max_length,
        }
