"""Targets are typed in Python and reach the agent's JavaScript as the objects it has always read
(``{ref: n}``, ``{selector: s}``, ``{page: true}``); a step names them once. No browser."""

from __future__ import annotations

import json

import pytest

from cdpseq.engine.request import Click, Condition, Drag
from cdpseq.engine.steps.context import target_named, target_of
from cdpseq.page import entries
from cdpseq.page.targets import PAGE, Node, Ref, Selector, Target, describe, to_agent
from cdpseq.page.view import ReadOptions


@pytest.mark.parametrize(("target", "sent", "named"), [
    (Ref(3), {"ref": 3}, "ref_3"),
    (Selector("#go >> button"), {"selector": "#go >> button"}, "selector '#go >> button'"),
    (Node(12), {"node": 12}, "node_12"),
    (PAGE, {"page": True}, "the page"),
])
def test_a_target_reaches_the_agent_as_the_object_it_reads(target: Target, sent: object,
                                                           named: str) -> None:
    assert to_agent(target) == sent
    assert entries.call("aim", target, {"attempt": 0}) == \
        f'__cdpseq.call("aim", {json.dumps(sent)}, {{"attempt": 0}})'
    assert entries.resolve_element(target) == f"__cdpseq.resolveElement({json.dumps(sent)})"
    assert describe(target) == named


def test_a_step_names_its_target_once() -> None:
    assert target_of(Click(target="ref_4")) == Ref(4)
    assert target_of(Click(target="node_9")) == Node(9)
    assert target_of(Click(target=9)) == Node(9)
    assert target_of(Click(selector="a.next")) == Selector("a.next")
    assert target_of(Condition(selector="#consent")) == Selector("#consent")
    assert target_of(Drag(target="ref_1", to_target="ref_2")) == Ref(1)
    assert target_named(None, None) is None


def test_a_narrowed_read_sends_its_scope_as_the_agent_reads_it() -> None:
    assert ReadOptions(scope=Ref(5)).narrowing()["scope"] == {"ref": 5}
    assert ReadOptions(scope=Selector("main")).narrowing()["scope"] == {"selector": "main"}
    assert ReadOptions(roles=("link",)).narrowing()["scope"] is None
