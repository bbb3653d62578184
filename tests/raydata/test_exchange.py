"""The keyed exchange: every key's rows of every input meet in one call, and a call holds one
hash partition, however many partitions a shuffle task gathers."""

import numpy as np
import pyarrow as pa
import pytest
import ray
from ray.data import DataContext

from cogevol.raydata.exchange import exchange, partition_of, shuffle_tasks
from cogevol.raydata.session import PARTITIONS_PER_TASK

pytestmark = [pytest.mark.usefixtures("ray_local"), pytest.mark.timeout(300)]


def _calls(tables, n_parts):
    """One row per call: the partitions its keys fall in, and its keys of each input."""
    a, b = tables["a"], tables["b"]
    keys = np.r_[[] if a is None else a.column("k").to_numpy(), [] if b is None else b.column("k").to_numpy()]
    seen = np.unique(partition_of(keys.astype(np.int64), n_parts))
    return pa.table({
        "partitions": [seen.tolist()],
        "keys_a": [[] if a is None else sorted(a.column("k").to_pylist())],
        "keys_b": [[] if b is None else sorted(b.column("k").to_pylist())],
    })


@pytest.mark.parametrize("per_task", [1, 3])
def test_each_call_holds_one_whole_partition(per_task):
    ctx = DataContext.get_current()
    before = ctx.get_config(PARTITIONS_PER_TASK, 1)
    ctx.set_config(PARTITIONS_PER_TASK, per_task)
    try:
        parts = 11
        rng = np.random.default_rng(per_task)
        ka, kb = rng.integers(0, 200, 500), rng.integers(0, 200, 300)
        a = ray.data.from_arrow(pa.table({"k": ka})).repartition(5)
        b = ray.data.from_arrow(pa.table({"k": kb})).repartition(3)
        calls = exchange({"a": (a, "k"), "b": (b, "k")}, _calls, parts, n_parts=parts).take_all()
        assert shuffle_tasks(parts) == (11 if per_task == 1 else 4)
    finally:
        ctx.set_config(PARTITIONS_PER_TASK, before)
    assert all(len(c["partitions"]) == 1 for c in calls)  # never two partitions in one call
    assert sorted(c["partitions"][0] for c in calls) == sorted(set(partition_of(np.r_[ka, kb], parts).tolist()))
    assert sorted(k for c in calls for k in c["keys_a"]) == sorted(ka.tolist())  # nothing lost or doubled
    assert sorted(k for c in calls for k in c["keys_b"]) == sorted(kb.tolist())
