// Roles, accessible names and states of elements, as read_page and the delta report them.

const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "textbox", "searchbox", "combobox", "listbox", "slider",
  "spinbutton", "treeitem", "gridcell",
]);

const NATIVE_INTERACTIVE = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"]);
// Tags that frameworks commonly make clickable with a handler the DOM does not show.
const CLICKABLE_TAGS = new Set(["DIV", "SPAN", "LI", "IMG", "SVG", "I"]);

// -- roles, names, state --------------------------------------------------------------------

function roleOf(el, rich = true) {
  const explicit = rich && el.hasAttributes() && el.getAttribute("role");
  if (explicit) return explicit.split(" ")[0];
  const tag = el.tagName;
  switch (tag) {
    case "A": return el.hasAttribute("href") ? "link" : "generic";
    case "BUTTON": return "button";
    case "SELECT": return el.multiple || el.size > 1 ? "listbox" : "combobox";
    case "TEXTAREA": return "textbox";
    case "SUMMARY": return "button";
    case "OPTION": return "option";
    case "IMG": return "img";
    case "FORM": return "form";
    case "NAV": return "navigation";
    case "MAIN": return "main";
    case "DIALOG": return "dialog";
    case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": return "heading";
    case "INPUT": {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (type === "checkbox") return "checkbox";
      if (type === "radio") return "radio";
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (el.hasAttribute("list")) return "combobox";
      return "textbox";
    }
  }
  if (el.isContentEditable) return "textbox";
  return "generic";
}

function nameOf(el, rich = true) {
  const tag = el.tagName;
  if (tag !== "INPUT" && tag !== "SELECT" && tag !== "TEXTAREA" && tag !== "IMG" &&
      (!rich || !el.hasAttributes())) {
    return clean(el.textContent);
  }
  const labelledby = el.getAttribute("aria-labelledby");
  if (labelledby) {
    const root = el.getRootNode();
    const text = labelledby.split(/\s+/).map(id => {
      const ref = root.getElementById ? root.getElementById(id) : null;
      return ref ? ref.textContent : "";
    }).join(" ");
    if (clean(text)) return clean(text);
  }
  const aria = el.getAttribute("aria-label");
  if (aria && aria.trim()) return clean(aria);
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "INPUT" && ["button", "submit", "reset"].includes(type)) {
      return clean(el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
    }
    if (el.labels && el.labels.length) {
      return clean(Array.from(el.labels, l => l.innerText || l.textContent).join(" "));
    }
    return clean(el.getAttribute("placeholder") || el.getAttribute("title") || "");
  }
  if (tag === "IMG") return clean(el.getAttribute("alt") || el.getAttribute("title") || "");
  return clean(el.textContent || el.getAttribute("title") || "");
}

function isInteractive(el, role, rich = true) {
  const tag = el.tagName;
  if (tag === "A") return el.hasAttribute("href") || INTERACTIVE_ROLES.has(role);
  if (tag === "BUTTON" || tag === "SELECT" || tag === "TEXTAREA" || tag === "SUMMARY") return true;
  if (tag === "INPUT") return (el.getAttribute("type") || "").toLowerCase() !== "hidden";
  if (INTERACTIVE_ROLES.has(role)) return true;
  if (rich) {
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) {
      return true;
    }
    if (el.hasAttribute("onclick")) return true;
    if (CLICKABLE_TAGS.has(tag) && el.hasAttribute("tabindex")) return true;
  }
  if (CLICKABLE_TAGS.has(tag)) {
    // Framework click handlers leave no trace in the DOM; a pointer cursor that starts here
    // (not inherited from an interactive ancestor) is the common tell.
    const cursor = getComputedStyle(el).cursor;
    if (cursor === "pointer") {
      const parent = el.parentElement;
      return !parent || getComputedStyle(parent).cursor !== "pointer";
    }
  }
  return false;
}

function stateOf(el, role, rich = true) {
  // The element's state flags, or null when it has none (most controls).
  let out = null;
  const tag = el.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
    out = {};
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "checkbox" || type === "radio") out.checked = el.checked;
    else if (type === "password" || reg.secrets.has(el)) out.value = el.value ? "••••" : "";
    else if (tag === "SELECT") {
      const opt = el.selectedOptions && el.selectedOptions[0];
      out.value = opt ? clean(opt.label || opt.text, 60) : "";
    } else out.value = clean(el.value, 60);
    if (type && tag === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(type)) {
      out.inputType = type;
    }
  } else if (role === "textbox" && el.isContentEditable) {
    out = { value: reg.secrets.has(el) ? "••••" : clean(el.innerText, 60) };
  }
  if (!rich || !el.hasAttributes()) {
    if (FORM_CONTROLS.has(tag) && el.matches(":disabled")) (out || (out = {})).disabled = true;
    if (tag === "A" && el.hasAttribute("href")) (out || (out = {})).href = el.getAttribute("href");
    return out;
  }
  out = out || {};
  const ariaChecked = el.getAttribute("aria-checked");
  if (ariaChecked !== null && out.checked === undefined) out.checked = ariaChecked === "true";
  if (disabled(el)) out.disabled = true;
  const expanded = el.getAttribute("aria-expanded");
  if (expanded !== null) out.expanded = expanded === "true";
  const selected = el.getAttribute("aria-selected");
  if (selected !== null) out.selected = selected === "true";
  if (tag === "A" && el.hasAttribute("href")) out.href = el.getAttribute("href");
  for (const _ in out) return out;
  return null;
}

const FORM_CONTROLS = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTGROUP", "OPTION",
  "FIELDSET"]);
function disabled(el) {
  if (el.getAttribute("aria-disabled") === "true") return true;
  return FORM_CONTROLS.has(el.tagName) && el.matches(":disabled");
}
