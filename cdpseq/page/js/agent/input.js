// Operations on elements (fill, select, check state, focus, scroll) and page scrolling.

const TEXT_INPUTS = new Set([
  "", "text", "search", "email", "url", "tel", "password", "number",
]);
const VALUE_INPUTS = new Set([
  "date", "time", "datetime-local", "month", "week", "color", "range",
]);

function setNativeValue(el, value) {
  // For inputs that text insertion cannot fill (date, color, range, ...): the native setter
  // (frameworks wrap the instance property), then the event they listen for.
  const proto = Object.getPrototypeOf(el);
  const setter = Object.getOwnPropertyDescriptor(proto, "value").set;
  setter.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
}

function editable(el) {
  if (el.isContentEditable) return { kind: "contenteditable" };
  const tag = el.tagName;
  if (tag === "TEXTAREA") return el.readOnly ? null : { kind: "text" };
  if (tag === "INPUT") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (el.readOnly) return null;
    if (TEXT_INPUTS.has(type)) return { kind: "text" };
    if (VALUE_INPUTS.has(type)) return { kind: "value" };
  }
  return null;
}

// -- operations -----------------------------------------------------------------------------

const ops = {
  point(el, args) { return actionable(el, args || {}); },

  focus(el) {
    el.focus();
    return { ok: true };
  },

  fill(el, args) {
    // A whole fill in one task, so no page script runs between the check and the typing
    // (focus cannot move away in between). Text fields get the text through the editing
    // pipeline (execCommand "insertText"), which fires a trusted input event with
    // inputType "insertText": what React, Vue and Angular listen to. Rich-text editors
    // (contenteditable) also handle beforeinput, which only real input fires, so for them
    // this returns {needsInput} with the content selected, and the caller sends
    // Input.insertText, then finishFill.
    const kind = editable(el);
    if (!kind) {
      return { error: "NOT_EDITABLE", reason: `${describe(el)} is not an editable field` };
    }
    const state = actionable(el, { hitTest: false });
    if (state.error) return state;
    // The element that takes focus: for a part of a contenteditable region, its editing host.
    let host = el;
    if (kind.kind === "contenteditable") {
      while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
    }
    host.focus();
    const focused = host.getRootNode().activeElement;
    if (focused !== host) {
      return { error: "NOT_ACTIONABLE", reason: `focus went to ${describe(focused)}`, retry: true };
    }
    if (args.secret) reg.secrets.add(el);
    if (kind.kind === "value") {
      setNativeValue(el, args.value);
      return ops.finishFill(el, args);
    }
    const doc = el.ownerDocument;
    if (kind.kind === "contenteditable") {
      const range = doc.createRange();
      range.selectNodeContents(el);
      const sel = doc.defaultView.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      return { needsInput: true, empty: !el.textContent };
    }
    try { el.select(); } catch (e) { /* some input types do not support select() */ }
    if (args.value === "") {
      if (el.value) doc.execCommand("delete");
    } else if (!doc.execCommand("insertText", false, args.value)) {
      return { needsInput: true, empty: !el.value };
    }
    return ops.finishFill(el, args);
  },

  finishFill(el, args) {
    if (!el.isContentEditable) el.dispatchEvent(new Event("change", { bubbles: true }));
    const now = el.isContentEditable ? el.innerText : el.value;
    return { matches: now.replace(/\r\n/g, "\n") === args.value.replace(/\r\n/g, "\n") };
  },

  clearSelection(el) {
    el.ownerDocument.execCommand("delete");
    return { ok: true };
  },

  select(el, args) {
    if (el.tagName !== "SELECT") {
      return { error: "NOT_EDITABLE", reason: `${describe(el)} is not a <select>` };
    }
    const state = actionable(el, { hitTest: false });
    if (state.error) return state;
    const options = Array.from(el.options);
    const want = args.value !== undefined ? args.value : args.label;
    const match = options.find(o => args.value !== undefined
      ? o.value === want : clean(o.label || o.text, 1000) === clean(want, 1000));
    if (!match) {
      const have = options.slice(0, 20).map(o => args.value !== undefined ? o.value : clean(o.label || o.text, 40));
      return {
        error: "OPTION_NOT_FOUND",
        reason: `no option with ${args.value !== undefined ? "value" : "label"} ${JSON.stringify(want)}; options: ${JSON.stringify(have)}`,
      };
    }
    if (match.disabled) return { error: "NOT_ACTIONABLE", reason: "that option is disabled" };
    el.focus();
    match.selected = true;
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return { value: match.value, label: clean(match.label || match.text, 80) };
  },

  checkedState(el) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (el.tagName === "INPUT" && (type === "checkbox" || type === "radio")) {
      return { checked: el.checked };
    }
    const aria = el.getAttribute("aria-checked");
    if (aria !== null) return { checked: aria === "true" };
    return { error: "NOT_EDITABLE", reason: `${describe(el)} is not a checkbox, radio or switch` };
  },

  scrollIntoView(el) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    return { scrollX: window.scrollX, scrollY: window.scrollY };
  },
};

function call(op, target, args) {
  const found = resolve(target);
  if (!found || found.error) return found;
  return ops[op](found.el, args);
}

function scrollPage(args) {
  const dx = args.direction === "left" ? -args.pixels : args.direction === "right" ? args.pixels : 0;
  const dy = args.direction === "up" ? -args.pixels : args.direction === "down" ? args.pixels : 0;
  window.scrollBy({ left: dx, top: dy, behavior: "instant" });
  return { scrollX: window.scrollX, scrollY: window.scrollY };
}
