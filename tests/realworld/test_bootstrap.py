"""Bootstrap 5.3: a settings page (custom checks and switches, btn-check toggle buttons, a
dropdown, an accordion, a tooltip, a form validated with Bootstrap's classes) and a team page
whose "Invite member" modal fades in and out. Apps: fixtures/realworld/apps/bootstrap-*.html."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, ChangedElement, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

BOOTSTRAP = "Bootstrap 5.3"


def changes(result: ActResult, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (from, to)."""
    change = result.state_change
    assert change, result
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


def names(entries: list[ChangedElement]) -> list[str]:
    return [e.name or "" for e in entries]


@pytest.mark.corpus(BOOTSTRAP, "custom checkbox and switch (.form-check, .form-switch)",
                    "read act delta")
async def test_custom_checkbox_and_switch_are_toggled(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    digest = ref(view, "Weekly digest", "checkbox")
    two_factor = ref(view, "Two-factor authentication", "switch")  # input role=switch
    result = await act(tab, {"steps": [{"type": "check", "target": digest},
                                       {"type": "click", "target": two_factor}]})
    assert result.ok, result
    assert await js(tab, "[...document.querySelectorAll('#notify-digest, #two-factor')]"
                         ".map(input => input.checked)") == [True, True]
    assert await js(tab, "__log") == ["notify-digest=true", "two-factor=true"]
    assert changes(result, digest) == {"checked": (False, True)}
    assert changes(result, two_factor) == {"checked": (False, True)}


@pytest.mark.corpus(BOOTSTRAP, "custom checkbox ticked by a click on its label for=",
                    "act delta")
async def test_a_custom_checkbox_is_unticked_through_its_label(tab: Tab,
                                                               server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    comments = ref(view, "Comments on my posts", "checkbox")
    result = await act(tab, {"steps": [
        {"type": "click", "selector": "label[for=notify-comments]"}]})
    assert await js(tab, "document.getElementById('notify-comments').checked") is False
    assert await js(tab, "__log") == ["notify-comments=false"]
    assert result.ok, result
    assert changes(result, comments) == {"checked": (True, False)}


@pytest.mark.corpus(BOOTSTRAP, "btn-check radio group (hidden input, label as the button)",
                    "read act delta")
async def test_a_btn_check_radio_is_chosen(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    light, dark = ref(view, "Light", "radio"), ref(view, "Dark", "radio")
    result = await act(tab, {"steps": [{"type": "click", "target": dark}]})
    assert await js(tab, "document.querySelector('input[name=theme]:checked').value") == "dark"
    assert result.ok, result
    assert changes(result, dark) == {"checked": (False, True)}
    assert changes(result, light) == {"checked": (True, False)}


@pytest.mark.corpus(BOOTSTRAP, "btn-check checkbox toggle button, check step", "act delta")
async def test_a_btn_check_toggle_is_checked(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    compact = ref(view, "Compact mode", "checkbox")
    result = await act(tab, {"steps": [{"type": "check", "target": compact}]})
    assert await js(tab, "document.getElementById('compact').checked") is True
    assert await js(tab, "__log") == ["compact=true"]
    assert result.ok, result
    assert changes(result, compact) == {"checked": (False, True)}


@pytest.mark.corpus(BOOTSTRAP, "dropdown: open, choose an item, it closes", "read act delta")
async def test_a_dropdown_item_is_chosen(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    toggle = ref(view, "Language: English", "button")
    opened = await act(tab, {"steps": [{"type": "click", "target": toggle}]})
    assert opened.ok, opened
    assert changes(opened, toggle) == {"expanded": (False, True)}
    assert opened.state_change and opened.state_change.appeared
    menu = opened.state_change.appeared[0]
    assert names(menu.controls or []) == ["English", "Deutsch", "Français"]
    french = next(c.ref for c in menu.controls or [] if c.name == "Français")
    assert french is not None

    chosen = await act(tab, {"steps": [{"type": "click", "target": french}]})
    assert chosen.ok, chosen
    assert await js(tab, "__log") == ["language=Français"]
    assert await js(tab, "document.querySelector('.dropdown-menu').classList.contains('show')"
                    ) is False
    assert changes(chosen, toggle) == {"name": ("Language: English", "Language: Français"),
                                       "expanded": (True, False)}
    assert chosen.state_change and [d.ref for d in chosen.state_change.disappeared] == [menu.ref]


@pytest.mark.corpus(BOOTSTRAP, "accordion (collapse with data-bs-parent)", "read act delta")
async def test_accordion_sections_open_one_at_a_time(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    api, danger = ref(view, "API access", "button"), ref(view, "Danger zone", "button")
    first = await act(tab, {"steps": [{"type": "click", "target": api}]})
    assert first.ok, first
    assert changes(first, api) == {"expanded": (False, True)}
    assert first.state_change and "Revoke key" in names(first.state_change.appeared)

    # The second section opens and, through data-bs-parent, the first one closes: both
    # transitions (350 ms) must be over when the delta is taken.
    second = await act(tab, {"steps": [{"type": "click", "target": danger}]})
    assert second.ok, second
    assert await js(tab, "[...document.querySelectorAll('.accordion-collapse')]"
                         ".map(panel => panel.className)") == [
        "accordion-collapse collapse", "accordion-collapse collapse show"]
    assert changes(second, api) == {"expanded": (True, False)}
    assert changes(second, danger) == {"expanded": (False, True)}
    assert second.state_change
    assert "Delete account" in names(second.state_change.appeared)
    assert "Revoke key" in names(second.state_change.disappeared)


@pytest.mark.corpus(BOOTSTRAP, "tooltip shown on hover", "act delta")
async def test_a_tooltip_shows_on_hover(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    result = await act(tab, {"steps": [{"type": "hover",
                                        "target": ref(view, "About themes", "button")}]})
    assert result.ok, result
    assert await js(tab, "document.querySelector('.tooltip.show[role=tooltip]')?.textContent"
                    ) == "Auto follows your system setting"
    assert result.state_change
    assert "Auto follows your system setting" in names(result.state_change.appeared)


@pytest.mark.corpus(BOOTSTRAP, "tooltip reported as the tooltip that appeared", "delta")
async def test_the_delta_names_the_tooltip(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    result = await act(tab, {"steps": [{"type": "hover",
                                        "target": ref(view, "About themes", "button")}]})
    assert result.ok and result.state_change, result
    assert [(a.role, a.name) for a in result.state_change.appeared] == [
        ("tooltip", "Auto follows your system setting")]


@pytest.mark.corpus(BOOTSTRAP, "modal that fades in, a form inside, saved, fades out",
                    "read act delta")
async def test_a_modal_form_is_filled_and_saved(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-team")
    opened = await act(tab, {"steps": [{"type": "click",
                                        "target": ref(view, "Invite member", "button")}]})
    assert opened.ok, opened
    assert await js(tab, "document.getElementById('invite').classList.contains('show')") is True
    assert opened.state_change
    dialog = opened.state_change.appeared[0]
    assert (dialog.role, dialog.name) == ("dialog", "Invite a team member")
    controls = {c.name: c.ref for c in dialog.controls or []}
    assert {"Name", "Email", "Role", "Send invite"} <= controls.keys()

    saved = await act(tab, {"steps": [
        {"type": "fill", "target": controls["Name"], "value": "Ada Lovelace"},
        {"type": "fill", "target": controls["Email"], "value": "ada@acme.test"},
        {"type": "select", "target": controls["Role"], "label": "Editor"},
        {"type": "click", "target": controls["Send invite"]}]})
    assert saved.ok, saved
    assert await js(tab, "__log[0]") == "invited Ada Lovelace <ada@acme.test> as Editor"
    assert await js(tab, "getComputedStyle(document.getElementById('invite')).display") == "none"
    assert saved.state_change
    assert [d.ref for d in saved.state_change.disappeared] == [dialog.ref]
    assert [line for a in saved.state_change.appeared for line in a.lines or []] == [
        "Ada Lovelace ada@acme.test Editor"]


@pytest.mark.corpus(BOOTSTRAP, "confirm modal closed by the app after a (timer) request",
                    "act delta")
async def test_a_confirm_modal_closes_after_the_request(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-team")
    asked = await act(tab, {"steps": [{"type": "click", "target": ref(view, "Remove", "button")}]})
    assert asked.ok and asked.state_change, asked
    dialog = asked.state_change.appeared[0]
    assert (dialog.role, dialog.name) == ("dialog", "Remove Alan Turing?")
    confirm = next(c.ref for c in dialog.controls or [] if c.name == "Remove member")
    assert confirm is not None

    # The app "asks the server" (300 ms), then removes the row and closes the modal, whose fade
    # (the page's own 400 ms) and backdrop follow: the act is over when the modal is.
    removed = await act(tab, {"steps": [{"type": "click", "target": confirm}]})
    assert removed.ok, removed
    assert await js(tab, "__log") == ["removed Alan Turing", "closed remove"]
    assert await js(tab, "getComputedStyle(document.getElementById('remove')).display") == "none"
    assert removed.state_change
    assert dialog.ref in [d.ref for d in removed.state_change.disappeared]


@pytest.mark.corpus(BOOTSTRAP, "form validation (.needs-validation, .was-validated): messages",
                    "act delta")
async def test_validation_messages_appear_on_submit(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    result = await act(tab, {"steps": [{"type": "click",
                                        "target": ref(view, "Update password", "button")}]})
    assert result.ok, result
    assert await js(tab, "document.getElementById('password-form').className") == (
        "needs-validation mb-5 was-validated")
    assert result.state_change
    assert names(result.state_change.appeared) == [
        "Use at least 8 characters.", "The passwords do not match."]


@pytest.mark.corpus(BOOTSTRAP, "form validation: .is-invalid on the field (class-only error)",
                    "act delta")
async def test_an_invalid_field_is_reported_by_its_class(tab: Tab,
                                                         server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    password, confirm = ref(view, "New password"), ref(view, "Confirm password")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": password, "value": "correct horse"},
        {"type": "fill", "target": confirm, "value": "correct hose"},
        {"type": "click", "target": ref(view, "Update password", "button")}]})
    assert result.ok, result
    assert await js(tab, "[...document.querySelectorAll('#password-form input')]"
                         ".map(input => input.className)") == [
        "form-control", "form-control is-invalid"]
    assert await js(tab, "document.getElementById('password-status').textContent") == ""
    field_changes = changes(result, confirm)
    assert "className" in field_changes, field_changes
    assert "is-invalid" in str(field_changes["className"][1])
    assert "className" not in changes(result, password)


@pytest.mark.corpus(BOOTSTRAP, "form validation: a valid form passes, its status shows",
                    "read act delta")
async def test_a_valid_password_is_accepted(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-settings")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "New password"), "value": "correct horse"},
        {"type": "fill", "target": ref(view, "Confirm password"), "value": "correct horse"},
        {"type": "click", "target": ref(view, "Update password", "button")}]})
    assert result.ok and result.state_change, result
    assert await js(tab, "document.getElementById('password-status').textContent"
                    ) == "Password updated."
    assert await js(tab, "document.querySelectorAll('.is-invalid').length") == 0
    assert names(result.state_change.appeared) == []
    assert [(c.role, c.field, c.after) for c in result.state_change.changed
            if c.role == "status"] == [("status", "text", "Password updated.")]


@pytest.mark.corpus(BOOTSTRAP, "a <select> in a modal: its options in the read", "read")
async def test_the_role_options_are_read(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "bootstrap-team")
    opened = await act(tab, {"steps": [{"type": "click",
                                        "target": ref(view, "Invite member", "button")}]})
    assert opened.ok, opened
    dialog = await read_page(tab, selector="#invite")
    assert ref(dialog, "Role", "combobox")
    # Whatever the form, the choices an agent has must be in the view ("Viewer" is the value).
    for option in ("Editor", "Owner"):
        assert option in dialog.text, dialog.text
