from cogevol.train.batch import grpo_batch


def test_accumulation_is_derived_from_the_world_size():
    for world, acc in ((1, 80), (8, 10), (16, 5), (80, 1)):
        b = grpo_batch(16, 5, 1, world)
        assert not b.problems and b.gradient_accumulation_steps == acc
        assert b.per_device_batch_size * world * acc == 80  # one step sees 16 whole groups


def test_a_layout_that_does_not_divide_names_the_knob_and_values_that_would():
    b = grpo_batch(16, 5, 1, 7)
    (p,) = b.problems
    assert p.knob == "grpo.requests_per_step" and b.gradient_accumulation_steps == 0
    assert "80 completions do not split over 7 ranks" in p.why and "14" in p.why
    # a per-device batch that divides is offered when there is one
    (q,) = grpo_batch(3, 4, 4, 2).problems  # 12 = 2 ranks x 3 x 2
    assert "per_device_batch_size 3" in q.why


def test_no_per_device_batch_means_a_ranks_share_at_once():
    b = grpo_batch(2, 4, None, 1)
    assert (b.per_device_batch_size, b.gradient_accumulation_steps) == (8, 1)
    assert grpo_batch(2, 4, None, 2).per_device_batch_size == 4
