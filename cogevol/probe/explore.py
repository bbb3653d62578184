"""Playing a page through: the states its inputs reach and the controls each state reveals.

Why: a reward that drives each control once from the first screen never sees what a page shows
only after an input (the game behind Play, a to-do item's Done and Delete buttons, a second tab,
a dialog), so a page whose deeper half is dead would earn what a working one earns. The probe
therefore looks for controls again in every new state a live input reached, and drives them in
the same lockstep regime, down to a depth and a state budget (params.yaml probe.harness.explore_*).

This module keeps the bookkeeping of that walk, apart from the browser work in core.py:

* a state is recognised by what is visible (the snapshot's text, structure, form state and canvas
  hashes), so an input that leads back to a state already seen reveals nothing and nothing loops;
* each input is a transition (from state, control, driver, live or dead, depth);
* per depth: controls revealed, driven and found live; the depth reached; whether a budget
  stopped the walk;
* which revealed controls are worth driving: alike ones (the Delete button of every row of a
  list) are driven once per state, and at most `explore_per_state` per state besides the fields
  (a dialog's fields and its Save are one form); a Cancel or Close goes last.

Deterministic by construction: the order of the walk is the order of discovery (document order)
and of inputs, and the state keys are hashes of what the seeded page shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cogevol.probe.config import Control, ProbeConfig


def state_key(snap: dict) -> str:
    """A state as a person would tell it apart: visible text, structure, form state and canvas
    pixels (hover and focus styles left out: pointing at a control is not a new state)."""
    return f"{snap['dom']}/{snap['canvas']}"


def _alike(c: Control) -> tuple[str, str, str]:
    """Controls alike for driving: same kind, tag and label, numbers aside (row 3's Delete)."""
    return c.kind, c.tag, re.sub(r"\d+", "#", c.label.lower())


# siblings of one kind in one container that make a set of options: a question's answers, a
# palette's swatches, a keypad's keys
OPTIONS_MIN = 3


# fields a form's button uses (typed text, a choice): driven with that button, not counted
# against explore_per_state, so a dialog's Save is not left out for its fields
FIELDS = ("text", "select")

# labels that close what an input opened (a dialog's Cancel, Close or x), in the eight traffic
# languages: driven after the rest of their state, or they would hide it before it is tried
DISMISS = re.compile(
    r"^\W*(cancel|close|dismiss|cancelar|cerrar|fechar|annuler|fermer|abbrechen|schlie(ß|ss)en"
    r"|x|×|✕|✖|取消|关闭|關閉|キャンセル|閉じる|취소|닫기)(\W|$)",
    re.I,
)


def _dismisses(c: Control) -> bool:
    return bool(DISMISS.match(c.label.strip()))


def _set_of(c: Control) -> tuple[str, str, str]:
    return c.kind, c.tag, c.group


@dataclass
class StateGraph:
    """The states and transitions a probe reached (ProbeResult.explore is its report)."""

    cfg: ProbeConfig
    keys: dict[str, int] = field(default_factory=dict)  # state key -> state id (0: first screen)
    transitions: list[dict] = field(default_factory=list)
    # depth -> {"revealed", "driven", "live"}
    depths: dict[int, dict[str, int]] = field(default_factory=dict)
    budget_stopped: str = ""  # which budget cut the walk short ("" when none did)
    # sets of options (kind, tag, container) one of which changed the state: answered
    answered_sets: set[tuple[str, str, str]] = field(default_factory=set)

    def state(self, key: str) -> int:
        """The id of the state with this key, adding it when new."""
        return self.keys.setdefault(key, len(self.keys))

    def seen(self, key: str) -> bool:
        return key in self.keys

    def stop(self, why: str) -> None:
        self.budget_stopped = self.budget_stopped or why

    def can_explore(self, key: str, depth: int) -> bool:
        """Whether the state an input reached is worth looking at for new controls: new, within
        the depth budget and within the state budget."""
        if self.seen(key):
            return False
        if depth >= self.cfg.explore_depth:
            self.stop("explore_depth")
            return False
        if len(self.keys) >= self.cfg.explore_states:
            self.stop("explore_states")
            return False
        return True

    def _depth(self, depth: int) -> dict[str, int]:
        return self.depths.setdefault(depth, {"revealed": 0, "driven": 0, "live": 0})

    def transition(
        self, src: str, dst: str, k: int, c: Control, depth: int, retry: bool, verdict: str
    ) -> None:
        """One input given in state `src` that led to `dst` (k: the control's place in the
        result's controls)."""
        self.transitions.append(
            {
                "from": self.state(src),
                "to": self.state(dst),
                "control": k,
                "label": c.label,
                "kind": c.kind,
                "driver": c.driver,
                "verdict": verdict,
                "depth": depth,
                **({"again": True} if retry else {}),
            }
        )
        d = self._depth(depth)
        if not retry:
            d["driven"] += 1
        if verdict == "live":  # only a dead control is tried again: a live one counts once
            d["live"] += 1

    def moved(self, c: Control) -> None:
        """A live input of `c` changed the state: if it is an option, its set is answered."""
        if c.group:
            self.answered_sets.add(_set_of(c))

    def answered(self, controls: list[Control], c: Control) -> bool:
        """Whether a dead control is an option of a set (OPTIONS_MIN siblings of its kind in one
        container) another option of which changed the state before: a quiz locks its answers
        once one is given, so the next answer pressed reads as dead without being broken. It is
        left out of the verdict, as a control alike one driven is. A set none of whose options
        responded stays dead, and so does a dead button beside live ones that change nothing
        on screen (an Export beside a Share)."""
        if _set_of(c) not in self.answered_sets:
            return False
        return sum(_set_of(x) == _set_of(c) for x in controls) >= OPTIONS_MIN

    def pick(self, revealed: list[tuple[int, Control]], depth: int) -> list[int]:
        """Of the controls an input revealed, those to drive, in the order to drive them: one of
        each alike kind, at most explore_per_state besides the fields (FIELDS), and those that
        close what the input opened (DISMISS) last; the others are marked why they are not
        driven."""
        self._depth(depth)["revealed"] += len(revealed)
        chosen, kinds, inputs = [], set(), 0
        for k, c in sorted(revealed, key=lambda kc: _dismisses(kc[1])):  # stable
            if c.status != "operable":
                continue
            if _alike(c) in kinds:
                c.status, c.reason = "alike", "alike a control driven in the same state"
                continue
            field = c.kind in FIELDS
            if not field and inputs >= self.cfg.explore_per_state:
                c.status, c.reason = "not_operable", "over explore_per_state"
                self.stop("explore_per_state")
                continue
            kinds.add(_alike(c))
            chosen.append(k)
            inputs += not field
        return chosen

    def report(self) -> dict:
        """The state graph as the probe's JSON carries it."""
        reached = max((d for d, v in self.depths.items() if v["driven"]), default=0)
        return {
            "states": len(self.keys),
            "transitions": self.transitions,
            "depths": [{"depth": d, **self.depths[d]} for d in sorted(self.depths)],
            "depth_reached": reached,
            "budget_stopped": self.budget_stopped,
        }
