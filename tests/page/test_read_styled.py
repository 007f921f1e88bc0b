"""What style rules give elements, as a read of a big page sees it
(fixtures/pages/read-styled.html): a read asks every <div> and <span> for a cursor that starts
there and every empty button for its ::before and ::after text, and once a root has been asked
many of these it answers from the root's rules instead (seen.js's styledBy). Each kind of rule
that can give them is on the page; what the read lists and names is checked against the page's
own computed styles."""

from __future__ import annotations

from typing import Any

from cdpseq import Tab
from fixtures.server import FixtureServer
from tests.helpers import js, open_page

# The page's own answer: the <div>s and <span>s whose cursor is a control's and starts there
# (not inherited from the parent), and each button's generated text, through shadow roots.
STYLED = """(() => {
  const all = [];
  const visit = root => {
    for (const el of root.querySelectorAll("*")) {
      all.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  const cursor = el => getComputedStyle(el).cursor;
  const starts = all.filter(el => (el.tagName === "DIV" || el.tagName === "SPAN") &&
    ["pointer", "grab", "move"].includes(cursor(el)) &&
    (!el.parentElement || cursor(el.parentElement) !== cursor(el)));
  const generated = all.filter(el => el.tagName === "BUTTON").map(el =>
    ["::before", "::after"].map(pseudo => getComputedStyle(el, pseudo).content)
      .filter(content => /^["']/.test(content)).map(content => content.slice(1, -1)).join(""));
  return { starts: starts.map(el => el.textContent.trim()), generated };
})()"""


async def test_a_read_lists_each_element_a_rule_gives_a_cursor_of_its_own(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/read-styled.html")
    page: dict[str, Any] = await js(tab, STYLED)
    # Every kind of rule is on the page: a class, an inline style, @media, @layer, @supports,
    # :has(), ::part() from outside a shadow root, a nested rule in one.
    assert page["starts"] == ["Open report", "Whole card", "Inline pointer", "Media pointer",
                              "Layer grab", "Supports move", "Bold row", "Part pointer",
                              "Nested pointer"]
    assert [e.name for e in view.elements if e.role == "generic"] == page["starts"]


async def test_a_read_names_each_empty_button_by_the_text_its_rules_generate(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/read-styled.html")
    page: dict[str, Any] = await js(tab, STYLED)
    # ::before, ::after, both, a class with escaped colons, none, a quoted attribute selector.
    assert page["generated"] == ["A", "Z", "T", "<>", "", "★"]
    assert [e.name for e in view.elements if e.role == "button"] == page["generated"]
