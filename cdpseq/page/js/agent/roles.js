// Roles, accessible names and states of elements, as reads and the page model report them.
//
// Names follow the accessible name computation in the cases pages use: aria-labelledby, then
// aria-label, then the host language (a <label>, an image's alt, a table's caption, a fieldset's
// legend), then the content for roles that take their name from it (each child's own text
// alternative: an image's alt, an SVG's <title>, a child's aria-label), then title and
// placeholder. `rich` is false for elements with no attributes at all (most of a big page): they
// take fast paths that need no attribute lookups.

const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "textbox", "searchbox", "combobox", "listbox", "slider",
  "spinbutton", "treeitem", "gridcell",
]);
const NATIVE_INTERACTIVE = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"]);
// Tags that frameworks commonly make clickable with a handler the DOM does not show.
const CLICKABLE_TAGS = new Set(["DIV", "SPAN", "LI", "IMG", "SVG", "I"]);
// Roles whose name comes from their content (the others are named by their author only).
// Fields and composite widgets are not: their content is their value or their items (an ARIA
// listbox is not named by its options' text, a contenteditable box not by what was typed).
const NAMED_BY_CONTENT = new Set(["button", "link", "checkbox", "radio", "switch", "tab",
  "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem", "gridcell", "heading",
  "cell", "columnheader", "rowheader", "row", "tooltip", "generic", "text"]);
const HEADINGS = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };

function roleOf(el, rich = true) {
  const explicit = rich && el.hasAttributes() && el.getAttribute("role");
  if (explicit) return explicit.trim().split(/\s+/)[0];
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

function byIds(el, ids) {
  // The elements of el's tree with these ids (aria-labelledby and the like).
  const root = el.getRootNode();
  return ids.split(/\s+/).map(id => root.getElementById ? root.getElementById(id) : null)
    .filter(Boolean);
}

function textAlternative(node, depth = 0) {
  // The text a node contributes to a name computed from content.
  if (node.nodeType === 3) return node.data;
  if (node.nodeType !== 1 || depth > 20) return "";
  const tag = node.tagName;
  if (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "NOSCRIPT") return "";
  if (node.hasAttributes()) {
    if (node.getAttribute("aria-hidden") === "true") return "";
    const label = node.getAttribute("aria-label");
    if (label && label.trim()) return " " + label + " ";
    if (tag === "IMG" || (tag === "INPUT" && node.type === "image")) {
      return " " + (node.getAttribute("alt") || "") + " ";
    }
  }
  if (tag === "svg" || tag === "SVG") {
    const title = node.querySelector("title");
    return title ? " " + title.textContent + " " : "";
  }
  const role = node.hasAttributes() ? node.getAttribute("role") : null;
  if (role === "group" || role === "menu" || role === "tree") return "";  // a treeitem's children
  let text = "";
  const kids = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
  for (const kid of kids) {
    if (kid.nodeType === 1 && kid.tagName === "SLOT") {
      for (const assigned of kid.assignedNodes()) text += textAlternative(assigned, depth + 1);
    } else {
      text += textAlternative(kid, depth + 1);
    }
  }
  // An empty element inside (an icon button in a grid cell) shows its CSS-generated text, which
  // Chrome names it by; only an empty one is asked (it costs a style computation).
  if (depth > 0 && !node.firstChild) text = generatedContent(node);
  // Blocks and controls laid out as blocks are words of their own: Chrome names a cell with an
  // "Edit" and a "Delete" button "Edit Delete".
  return SPACED_TAGS.has(tag) ? ` ${text} ` : text;
}

const SPACED_TAGS = new Set(["DIV", "P", "LI", "TD", "TH", "TR", "H1", "H2", "H3", "H4", "H5",
  "H6", "SECTION", "ARTICLE", "HEADER", "FOOTER", "BUTTON", "SELECT", "TEXTAREA", "INPUT"]);

function labelText(label, control) {
  // A label's text without the control it labels: a select inside its label would add all its
  // options' text to its own name.
  if (!label.contains(control)) return label.innerText || label.textContent;
  let text = "";
  for (const kid of label.childNodes) {
    if (kid === control) continue;
    if (kid.nodeType === 3) text += kid.data;
    else if (kid.nodeType === 1) {
      text += " " + (kid.contains(control) ? labelText(kid, control) : kid.innerText || kid.textContent) + " ";
    }
  }
  return text;
}

function contentName(el) {
  // A name from content: textContent, unless that says nothing (an icon: then the images'
  // alt, the SVGs' titles and the children's aria-labels).
  const text = clean(el.textContent);
  if (text && !el.firstElementChild) return text;
  const full = clean(textAlternative(el)) || text;
  return full || generatedContent(el);
}

function generatedContent(el) {
  // CSS ::before and ::after text (an icon button's glyph), which Chrome names it by.
  let text = "";
  for (const pseudo of ["::before", "::after"]) {
    const content = getComputedStyle(el, pseudo).content;
    if (content && content !== "none" && content !== "normal" && /^["']/.test(content)) {
      text += content.slice(1, -1);
    }
  }
  return clean(text.replace(/[\uE000-\uF8FF]/g, ""));  // icon fonts' private glyphs say nothing
}

function authorName(el) {
  // The name an author gave: aria-labelledby's referenced text, else aria-label.
  const labelledby = el.getAttribute("aria-labelledby");
  if (labelledby) {
    const text = clean(byIds(el, labelledby).map(ref => ref.textContent).join(" "));
    if (text) return text;
  }
  const aria = el.getAttribute("aria-label");
  return aria && aria.trim() ? clean(aria) : "";
}

function nameOf(el, rich = true) {
  const tag = el.tagName;
  if (tag !== "INPUT" && tag !== "SELECT" && tag !== "TEXTAREA" && tag !== "IMG" &&
      (!rich || !el.hasAttributes())) {
    return contentName(el);
  }
  const authored = authorName(el);
  if (authored) return authored;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "INPUT" && ["button", "submit", "reset"].includes(type)) {
      return clean(el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
    }
    if (tag === "INPUT" && type === "image") return clean(el.getAttribute("alt") || "");
    const labels = labelsOf(el);
    if (labels.length) return clean(labels.map(l => labelText(l, el)).join(" "));
    return clean(el.getAttribute("placeholder") || el.getAttribute("title") || "");
  }
  if (tag === "IMG") return clean(el.getAttribute("alt") || el.getAttribute("title") || "");
  const role = roleOf(el, rich);
  const fromContent = NAMED_BY_CONTENT.has(role) ? contentName(el) : "";
  return fromContent || clean(el.getAttribute("title") || "");
}

function containerName(el, role) {
  // A container is named by its author (aria-labelledby, aria-label), a table by its caption,
  // a fieldset by its legend, a figure by its figcaption, a dialog by its first heading.
  if (el.hasAttributes()) {
    const authored = authorName(el);
    if (authored) return authored;
  }
  const tag = el.tagName;
  const first = selector => {
    const found = el.querySelector(selector);
    return found ? clean(found.textContent) : "";
  };
  if (tag === "TABLE") return el.caption ? clean(el.caption.textContent) : "";
  if (tag === "FIELDSET") return first(":scope > legend");
  if (tag === "FIGURE") return first(":scope > figcaption");
  if (role === "dialog" || role === "alertdialog") {
    return first("h1, h2, h3, h4, h5, h6, [role=heading]");
  }
  return "";
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
    if (el.getAttribute("draggable") === "true") return true;  // HTML5 drag and drop's items
    // In the tab order (tabindex -1 is focus by script only), with something to say (empty
    // focusable boxes are a dialog's focus traps), and no role that says otherwise.
    if (CLICKABLE_TAGS.has(tag) && role === "generic" && el.tabIndex >= 0 &&
      (el.textContent.trim() || el.hasAttribute("aria-label") || el.firstElementChild)) return true;
  }
  if (CLICKABLE_TAGS.has(tag)) {
    // Framework click handlers leave no trace in the DOM; a pointer cursor that starts here
    // (not inherited from an interactive ancestor) is the common tell; a grab or move cursor
    // is a drag handle's (sortables on pointer events leave no other trace).
    const cursor = getComputedStyle(el).cursor;
    if (cursor === "pointer" || cursor === "grab" || cursor === "move") {
      const parent = el.parentElement;
      return !parent || getComputedStyle(parent).cursor !== cursor;
    }
  }
  return false;
}

function deepActive() {
  // The focused element, through shadow roots and same-origin frames.
  let active = document.activeElement;
  for (let depth = 0; active && depth < 32; depth++) {
    if (active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    else if ((active.tagName === "IFRAME" || active.tagName === "FRAME") && active.contentDocument &&
      active.contentDocument.activeElement) active = active.contentDocument.activeElement;
    else break;
  }
  return active;
}

const ARIA_FLAGS = [["aria-pressed", "pressed"], ["aria-expanded", "expanded"],
  ["aria-selected", "selected"], ["aria-readonly", "readonly"], ["aria-required", "required"]];

function stateOf(el, role, rich = true, active = null) {
  // The element's value and state flags, or null when it has none (most controls): checked
  // (or "mixed"), pressed, expanded, selected, current, disabled, readonly, required, invalid,
  // valuenow/valuetext, focused; value and inputType for fields, href for links.
  let out = null;
  const tag = el.tagName;
  const set = (key, value) => { (out || (out = {}))[key] = value; };
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "checkbox" || type === "radio") set("checked", el.indeterminate ? "mixed" : el.checked);
    else if (type === "password" || reg.secrets.has(el)) set("value", el.value ? "••••" : "");
    else if (tag === "SELECT") {
      const chosen = Array.from(el.selectedOptions || [], o => clean(o.label || o.text, 60));
      set("value", el.multiple ? chosen.join(", ") : chosen[0] || "");
    } else set("value", clean(el.value, 60));
    if (type && tag === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(type)) {
      set("inputType", type);
    }
    if (el.required) set("required", true);
    if (el.readOnly) set("readonly", true);
  } else if (role === "textbox" && el.isContentEditable) {
    set("value", reg.secrets.has(el) ? "••••" : clean(el.innerText, 60));
  }
  if (el === active) set("focused", true);
  if (!rich || !el.hasAttributes()) {
    if (FORM_CONTROLS.has(tag) && el.matches(":disabled")) set("disabled", true);
    if (tag === "A" && el.hasAttribute("href")) set("href", el.getAttribute("href"));
    return out;
  }
  const ariaChecked = el.getAttribute("aria-checked");
  if (ariaChecked !== null && (!out || out.checked === undefined)) {
    set("checked", ariaChecked === "mixed" ? "mixed" : ariaChecked === "true");
  }
  if (disabledReason(el)) set("disabled", true);
  for (const [attr, key] of ARIA_FLAGS) {
    const value = el.getAttribute(attr);
    if (value !== null && (!out || out[key] === undefined)) set(key, value === "true");
  }
  const current = el.getAttribute("aria-current");
  if (current !== null && current !== "false") set("current", current === "true" ? true : current);
  const invalid = el.getAttribute("aria-invalid");
  if (invalid !== null && invalid !== "false") set("invalid", true);
  const now = el.getAttribute("aria-valuenow");
  if (now !== null) set("valuenow", Number(now));
  const text = el.getAttribute("aria-valuetext");
  if (text !== null) set("valuetext", clean(text, 60));
  if (tag === "A" && el.hasAttribute("href")) set("href", el.getAttribute("href"));
  return out;
}

const FORM_CONTROLS = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTGROUP", "OPTION",
  "FIELDSET"]);
