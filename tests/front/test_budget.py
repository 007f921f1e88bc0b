"""The answer budget (``front/budget.py``), pure: what goes first, what never goes, and that every
cut is marked and the answer fits."""

from __future__ import annotations

import re

import pytest

from cdpseq.front.budget import MIN_CHARS, fit, kept_refs

HEAD = ["1/1 ok · stable after 40 ms · /inbox",
        '+ [ref_90] dialog "Compose"',
        "    Write to your team",
        '    [ref_91] textbox "To"',
        '~ [ref_7] button "Send" disabled true → false']
PAGE = (['Page: "Inbox" http://127.0.0.1/inbox']
        + ["# Inbox"] + [f"Message number {i} from someone about something" for i in range(40)]
        + [f'[ref_{i}] link "Open message {i}"' for i in range(1, 60)]
        + ['[ref_90] dialog "Compose"', '[ref_91] textbox "To"'])


def size(lines: list[str]) -> int:
    return len("\n".join(lines))


def test_an_answer_that_fits_is_whole() -> None:
    lines, cut = fit(HEAD, PAGE, 100_000)
    assert lines == [*HEAD, *PAGE] and cut is None


@pytest.mark.parametrize("budget", [MIN_CHARS, 600, 1200, 2000, 3000])
def test_a_cut_answer_fits_says_so_and_keeps_what_it_must(budget: int) -> None:
    lines, cut = fit(HEAD, PAGE, budget)
    whole = size([*HEAD, *PAGE])
    assert cut is not None and cut.chars == whole and cut.max_chars == budget
    assert cut.shown == size(lines)
    must = [*HEAD[:2], *HEAD[3:], PAGE[0]]
    if size(must) < budget - 80:  # room for the markers and the size line
        assert size(lines) <= budget, "\n".join(lines)
        assert lines[-1] == f"… cut to {size(lines):,} of {whole:,} chars (maxChars {budget})"
    # Never cut: the header, every head line naming a ref, the Page: line; the refs the head
    # names stay on the page too (an agent acts on them next).
    for line in must:
        assert line in lines
    assert {"ref_90", "ref_91", "ref_7"} <= kept_refs(lines)
    assert '[ref_90] dialog "Compose"' in lines[len(HEAD):]
    # Every line that went is counted where it was.
    counted = sum(int(n) for n in re.findall(r"(\d+) more (?:elements?|lines?)",
                                             "\n".join(lines)))
    assert counted == cut.lines == len(HEAD) + len(PAGE) - (len(lines) - 1 - sum(
        1 for line in lines[:-1] if line.lstrip().startswith("… ")))


def test_page_text_goes_before_controls() -> None:
    lines, cut = fit(HEAD, PAGE, size([*HEAD, *PAGE]) - 300)
    assert cut is not None
    assert all(line in lines for line in PAGE if line.startswith("[ref_")), "\n".join(lines)
    assert "# Inbox" in lines  # the first text lines stay: text goes from the end
    assert not any(line.startswith("Message number 39") for line in lines)


def test_controls_go_from_the_end_after_all_the_text() -> None:
    lines, _ = fit(HEAD, PAGE, 1500)
    assert not any(line.startswith("Message number") for line in lines)
    assert '[ref_1] link "Open message 1"' in lines
    assert '[ref_59] link "Open message 59"' not in lines
    assert any(re.fullmatch(r"… \d+ more elements?(, \d+ more lines?)?", line) for line in lines)


def test_what_is_never_cut_is_answered_whole_and_said_to_be_over() -> None:
    head = ["0/1 ok", "✗ step 0 click: NOT_ACTIONABLE: " + "covered by a banner " * 30]
    lines, cut = fit(head, ['Page: "x" http://a/', "some text"], MIN_CHARS)
    assert cut is not None and head[1] in lines
    assert "over maxChars 200" in lines[-1]


def test_container_text_in_the_head_goes_last_and_is_marked_in_place() -> None:
    head = ["1/1 ok", '+ [ref_5] dialog "Terms"'] + [f"    clause {i} " * 5 for i in range(30)] \
        + ['    [ref_6] button "Accept"']
    lines, cut = fit(head, [], 400)
    assert cut is not None and size(lines) <= 400
    assert '    [ref_6] button "Accept"' in lines
    assert any(re.fullmatch(r"    … \d+ more lines", line) for line in lines), lines
