// fill: put a value in a text field, a value field (date, color, range, ...) or a rich-text
// editor, and say whether the field holds it afterwards.
//
// A whole fill runs in one task, so no page script runs between the checks and the typing
// (focus cannot move away in between). Text fields get the text through the editing pipeline
// (execCommand "insertText"): a trusted input event with inputType "insertText", what React, Vue
// and Angular listen to, and maxlength holds. No change event: a text field's change is the
// browser's, when the person presses Enter or leaves the field (Chromium fires it then for text
// put in this way, once), and apps that commit on change (a to-do input that adds its item and
// empties itself) must not commit in the middle of a fill. Value fields get the native value
// setter and input and change events, as a picker commits what it sets, after a detached twin
// of the field (same type and limits) showed that the browser keeps the value: a value it would
// reject fails with INVALID_VALUE and the field is not touched. Rich-text editors also handle beforeinput, which only real input fires: for them
// this answers {needsInput} with the content selected, the caller sends Input.insertText, then
// finishFill. Afterwards the field must hold the value (or the same letters and digits, as an
// input mask formats them), else INVALID_VALUE says what it holds; never for a credential.

const TEXT_INPUTS = new Set(["text", "search", "email", "url", "tel", "password", "number"]);
const VALUE_INPUTS = new Set(["date", "time", "datetime-local", "month", "week", "color",
  "range"]);
const FORMATS = { date: "yyyy-mm-dd", time: "hh:mm or hh:mm:ss", month: "yyyy-mm",
  week: "yyyy-Www", "datetime-local": "yyyy-mm-ddThh:mm", color: "#rrggbb" };
const READONLY_ROLES = new Set(["checkbox", "combobox", "grid", "gridcell", "listbox", "radiogroup",
  "slider", "spinbutton", "textbox", "columnheader", "rowheader", "searchbox", "switch", "treegrid"]);

function fieldKind(el) {
  // "text", "value" or "contenteditable"; or why el cannot be filled.
  if (el.isContentEditable) return { kind: "contenteditable" };
  if (el.tagName === "TEXTAREA") return { kind: "text" };
  if (el.tagName === "INPUT") {
    if (TEXT_INPUTS.has(el.type)) return { kind: "text" };
    if (VALUE_INPUTS.has(el.type)) return { kind: "value" };
    if (el.type === "file") {
      return { error: "NOT_EDITABLE", reason: 'an input of type "file" cannot be filled: it ' +
        "takes files; use an upload step with files: [paths] (clear empties it)" };
    }
    return { error: "NOT_EDITABLE", reason: `an input of type "${el.type}" cannot be filled` };
  }
  return { error: "NOT_EDITABLE",
    reason: `${describe(el)} is not an <input>, <textarea> or [contenteditable] element` };
}

function readonlyReason(el) {
  if ((el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.readOnly) return "read-only";
  if (READONLY_ROLES.has(roleOf(el)) && el.getAttribute("aria-readonly") === "true") {
    return "read-only (aria-readonly)";
  }
  return null;
}

function describeField(el) {
  if (el.isContentEditable) return `the editable ${el.tagName.toLowerCase()}`;
  return el.tagName === "INPUT" ? `the input type=${el.type}` : `the ${el.tagName.toLowerCase()}`;
}

function kept(el, value) {
  // What the browser keeps of value in a field like el, without touching el.
  const twin = el.ownerDocument.createElement("input");
  twin.type = el.type;
  for (const name of ["min", "max", "step"]) {
    if (el.hasAttribute(name)) twin.setAttribute(name, el.getAttribute(name));
  }
  twin.value = value;
  return twin.value;
}

function rejectedValue(el, value, secret) {
  // Why the browser would not take value in el (a value field or a number), or null.
  const type = el.type;
  const shown = secret ? "the credential" : JSON.stringify(value);
  if (type === "range") {
    const keeps = kept(el, value);
    if (value.trim() !== "" && Number(keeps) === Number(value)) return null;
    const limits = ["min", "max", "step"].filter(a => el.hasAttribute(a))
      .map(a => `${a} ${el.getAttribute(a)}`).join(", ");
    return `${describeField(el)}${limits ? ` (${limits})` : ""} would keep ${JSON.stringify(keeps)} ` +
      `for ${shown}`;
  }
  if (type === "color") {
    if (kept(el, value) === value.trim().toLowerCase()) return null;
    return `${shown} is not a color for ${describeField(el)} (expected ${FORMATS.color})`;
  }
  if (type === "number" || FORMATS[type]) {
    if (value.trim() === "" || kept(el, value) !== "") return null;
    const expected = type === "number" ? "a number" : FORMATS[type];
    return `${shown} is not valid for ${describeField(el)} (expected ${expected})`;
  }
  return null;
}

function setNativeValue(el, value) {
  // The native setter (frameworks wrap the instance property), then the event they listen for.
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set;
  setter.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
}

function letters(text) {
  return text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

function fillOutcome(el, args) {
  // {ok} when el holds what was asked (as the browser normalizes it, or with only the
  // formatting an input mask adds), else why not.
  let want = args.value.replace(/\r\n/g, "\n");
  let now = (el.isContentEditable ? el.innerText : el.value).replace(/\r\n/g, "\n");
  if (el.isContentEditable && !want.endsWith("\n")) now = now.replace(/\n$/, "");
  if (!el.isContentEditable && VALUE_INPUTS.has(el.type)) want = kept(el, want.trim());
  if (now === want) return { ok: true };
  if (letters(want) && letters(now) === letters(want)) {
    return args.secret ? { ok: true } : { ok: true, formatted: clean(now, 80) };
  }
  const limit = el.maxLength >= 0 && want.length > el.maxLength ? ` (maxlength ${el.maxLength})`
    : " (the page changed or refused it)";
  if (args.secret) {
    return { error: "INVALID_VALUE", reason: `${describeField(el)} does not hold the credential ` +
      `after filling it${limit}` };
  }
  return { error: "INVALID_VALUE", reason: `${describeField(el)} holds ${JSON.stringify(clean(now, 80))} ` +
    `after filling ${JSON.stringify(clean(want, 80))}${limit}` };
}

function fillField(el, args) {
  el = retarget(el, "follow-label");
  const kind = fieldKind(el);
  if (kind.error) return kind;
  const hidden = hiddenReason(el);
  if (hidden) return { error: "NOT_ACTIONABLE", reason: hidden, retry: true };
  const disabled = disabledReason(el);
  if (disabled) return { error: "NOT_ACTIONABLE", reason: disabled, retry: true };
  const readonly = readonlyReason(el);
  if (readonly) return { error: "NOT_ACTIONABLE", reason: `not editable (${readonly})`, retry: true };
  const rejected = kind.kind !== "contenteditable" && rejectedValue(el, args.value, args.secret);
  if (rejected) return { error: "INVALID_VALUE", reason: rejected };
  // The element that takes focus: for a part of a contenteditable region, its editing host.
  let host = el;
  if (kind.kind === "contenteditable") {
    while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
  }
  touch(host);
  host.focus();
  const focused = host.getRootNode().activeElement;
  if (focused !== host) {
    return { error: "NOT_ACTIONABLE", reason: `focus went to ${describe(focused)}`, retry: true };
  }
  if (args.secret) reg.secrets.add(el);
  if (kind.kind === "value") {
    setNativeValue(el, el.type === "color" ? args.value.trim().toLowerCase() : args.value.trim());
    // A picker (calendar, color well, slider) commits what it sets: its change comes at once.
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return finishFill(el, args);
  }
  const doc = el.ownerDocument;
  if (kind.kind === "contenteditable") {
    const range = doc.createRange();
    range.selectNodeContents(el);
    const selection = doc.defaultView.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return { needsInput: true, empty: !el.textContent };
  }
  try { el.select(); } catch (e) { /* some input types do not support select() */ }
  if (args.value === "") {
    if (el.value) doc.execCommand("delete");
  } else if (!doc.execCommand("insertText", false, args.value)) {
    return { needsInput: true, empty: !el.value };
  }
  return finishFill(el, args);
}

// How long a rich-text editor may take to show text sent with Input.insertText: the browser
// answers that command before the page has run the input.
const INSERT_WAIT = 1000;

async function finishFill(el, args) {
  el = retarget(el, "follow-label");
  if (!el.isContentEditable) return fillOutcome(el, args);
  const deadline = performance.now() + INSERT_WAIT;
  let outcome = fillOutcome(el, args);
  while (outcome.error && performance.now() < deadline) {
    await new Promise(resolve => {
      const done = () => { observer.disconnect(); el.removeEventListener("input", done); resolve(); };
      const observer = new MutationObserver(done);
      observer.observe(el, { subtree: true, childList: true, characterData: true });
      el.addEventListener("input", done);
      setTimeout(done, Math.max(deadline - performance.now(), 0));
    });
    outcome = fillOutcome(el, args);
  }
  return outcome;
}

function clearSelection(el) {
  el.ownerDocument.execCommand("delete");
  return { ok: true };
}
