"""The extract step (issue 13): Markdown of the main content or one element (markdownify on
what the reader sees), rendered text, bounded size, and a form's current values."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import Tab, act
from cdpseq.engine.steps.extract import cut, to_markdown
from fixtures.server import FixtureServer
from tests.helpers import open_page, run


async def extract(tab: Tab, **step: Any) -> dict[str, Any]:
    result = await act(tab, [{"type": "extract", **step}])  # returnMode final: still output
    assert result.ok, result.failed
    output: dict[str, Any] = result.steps[0].output
    return output


async def test_markdown_of_the_main_content_keeps_structure(tab: Tab,
                                                            server: FixtureServer) -> None:
    await open_page(tab, server, "/article.html")
    output = await extract(tab)
    md = output["content"]
    assert output["format"] == "markdown" and output["from"] == "main"
    assert output["truncated"] is False and output["chars"] == len(md)
    assert md.startswith("# Release notes 2.4")
    assert "## Compatibility" in md
    assert f"[issue 42]({server.url('/issues/42')})" in md  # relative link made absolute
    assert f"[streaming guide]({server.url('/docs/streaming.html')})" in md
    assert "- Faster startup" in md and "1. Upgrade the client" in md
    assert "| Platform | Supported |" in md and "| Windows | from 2.5 |" in md
    assert '```python\nfor chunk in client.stream("q"):\n    print(chunk)\n```' in md
    assert "**streaming**" in md and "`stream()`" in md
    assert "Was this page helpful?" in md  # an open dialog is content; a closed one is not
    for absent in ("Internal draft", "Hidden by attribute", "document.write", "color: black",
                   "© Acme", "Home", "Closed survey"):  # hidden, script, style, and outside <main>
        assert absent not in md


async def test_text_of_one_element(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/article.html")
    output = await extract(tab, selector="table", format="text")
    assert output["from"] == "table"
    assert output["content"].splitlines()[0].split("\t") == ["Platform", "Supported"]
    assert "Windows\tfrom 2.5" in output["content"]


async def test_max_chars_cuts_and_says_so(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/article.html")
    output = await extract(tab, maxChars=100)
    assert output["truncated"] is True and len(output["content"]) <= 100
    assert output["chars"] > 100


async def test_form_values_by_field_name_with_passwords_hidden(tab: Tab,
                                                               server: FixtureServer) -> None:
    await open_page(tab, server, "/signup.html")
    await run(tab, {"type": "fill", "selector": "[name=name]", "value": "Grace"},
              {"type": "check", "selector": "[value=offers]"},
              {"type": "select", "selector": "[name=country]", "value": "fr"})
    output = await extract(tab, format="form")  # the page's first form
    assert output["from"] == "form#signup"
    assert output["values"] == {
        "csrf": "tok-123", "name": "Grace", "email": "ada@example.com",
        "password": "********", "confirm": "", "terms": True,
        "topics": ["news", "offers", "events"], "plan": "pro", "billing": None,
        "country": "fr", "languages": ["en", "de"], "about": "Hello\nworld", "nickname": "ace",
    }
    assert output["redacted"] == ["password", "confirm"]
    assert "hunter2" not in str(output)
    search = await extract(tab, format="form", selector="[name=q]")  # its form
    assert search["values"] == {"q": "cats"}


async def test_a_page_without_a_form_fails_clearly(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/article.html")
    result = await act(tab, {"perStepTimeoutMs": 300,
                             "steps": [{"type": "extract", "format": "form"}]})
    assert result.failed is not None and result.failed.code == "NODE_NOT_FOUND"
    assert "no form" in result.failed.error


@pytest.mark.parametrize(("step", "field"), [
    ({"type": "extract", "format": "pdf"}, "steps[0].format"),
    ({"type": "extract", "maxChars": 5}, "steps[0].maxChars"),
    ({"type": "extract", "target": "ref_1", "selector": "main"}, "steps[0].selector"),
])
async def test_bad_options_are_refused_naming_the_field(tab: Tab, step: dict[str, Any],
                                                        field: str) -> None:
    result = await act(tab, [step])
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert field in result.failed.error


def test_markdown_and_cutting_without_a_browser() -> None:
    assert to_markdown("<h2>T</h2><p>a</p>\n\n\n\n<p>b  </p>") == "## T\n\na\n\nb"
    assert to_markdown('<pre class="lang-js"><code>x = 1</code></pre>') == "```js\nx = 1\n```"
    assert cut("abc", 10) == ("abc", False)
    assert cut("line one\nline two is long", 20) == ("line one\nline two is", True)
    assert cut("x" * 90 + "\nyyyyyyyyyyyyyyy", 100) == ("x" * 90, True)
