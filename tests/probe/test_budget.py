"""The driving budget counts the time the machine gave the probe, not the wall clock."""

from cogevol.probe.budget import Budget


class Clock:
    def __init__(self):
        self.wall = self.system = self.own = 0.0

    def tick(self, seconds: float, others_cores: float, own_cores: float = 1.0) -> None:
        self.wall += seconds
        self.system += seconds * (others_cores + own_cores)
        self.own += seconds * own_cores


def budget(clock: Clock, seconds=10.0, cap=3.0) -> Budget:
    return Budget(seconds, cap, wall=lambda: clock.wall, system_busy=lambda: clock.system,
                  own_busy=lambda: clock.own, cores=2)


def test_an_idle_machine_spends_the_budget_in_wall_time():
    c = Clock()
    b = budget(c)
    for _ in range(9):
        c.tick(1.0, others_cores=0.0)
        assert not b.over()
    c.tick(1.0, others_cores=0.0)
    assert b.over() and abs(b.stretch() - 1.0) < 1e-9


def test_a_hog_on_one_of_two_cores_stretches_it_twice():
    c = Clock()
    b = budget(c)
    for _ in range(19):
        c.tick(1.0, others_cores=1.0)
        assert not b.over()
    c.tick(1.0, others_cores=1.0)
    assert b.over() and abs(b.stretch() - 2.0) < 1e-9


def test_a_hopeless_machine_meets_the_cap():
    c = Clock()
    b = budget(c, cap=3.0)
    c.tick(29.0, others_cores=2.0)  # the rest of the machine takes everything
    assert not b.over()
    c.tick(1.0, others_cores=2.0)
    assert b.over() and b.spent < 10.0
