// States and values of elements, as reads and the page model report them: checked, pressed,
// expanded, selected, disabled, a field's value (a select's options too), a range's value, a
// tree item's level, a column's sort, a composite widget's active item.

const ARIA_FLAGS = [["aria-pressed", "pressed"], ["aria-expanded", "expanded"],
  ["aria-selected", "selected"], ["aria-readonly", "readonly"], ["aria-required", "required"]];

// ARIA roles that are checked or not: without aria-checked they are unchecked (Chrome says so).
const UNCHECKED_BY_DEFAULT = new Set(["checkbox", "switch", "radio", "menuitemcheckbox",
  "menuitemradio"]);

function stateOf(el, role, rich = true, active = null) {
  // The element's value and state flags, or null when it has none (most controls): checked
  // (or "mixed"), pressed, expanded, selected, current, disabled, readonly, required, invalid,
  // valuenow/valuetext/valuemin/valuemax, level, sort, the active item of a composite widget,
  // focused; value and inputType for fields (a select's options too), href for links.
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
      optionsOf(el, set);
    } else if (type === "file") {
      set("value", Array.from(el.files || [], file => file.name).join(", "));
    } else set("value", clean(el.value, 60));
    if (type && tag === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(type)) {
      set("inputType", type);
    }
    if (el.required) set("required", true);
    // A select-only combobox is a read-only <input> one picks a value for: not read-only.
    if (el.readOnly && role !== "combobox") set("readonly", true);
  } else if (role === "textbox" && el.isContentEditable) {
    set("value", reg.secrets.has(el) ? "••••" : clean(el.innerText, 60));
  } else if (tag === "SUMMARY") {
    const open = disclosureOpen(el);
    if (open !== null) set("expanded", open);
  } else if (tag === "METER" || tag === "PROGRESS") {
    // A progress bar without a value is indeterminate (position -1): it has none.
    if (tag === "METER" || el.position >= 0) {
      set("valuenow", el.value);
      set("valuemin", tag === "METER" ? el.min : 0);
      set("valuemax", el.max);
    }
  }
  if (el === active) set("focused", true);
  if (!rich || !el.hasAttributes()) {
    if (FORM_CONTROLS.has(tag) && el.matches(":disabled")) set("disabled", true);
    if (tag === "A" && el.hasAttribute("href")) set("href", el.getAttribute("href"));
    return out;
  }
  const ariaChecked = el.getAttribute("aria-checked");
  if (!out || out.checked === undefined) {
    if (ariaChecked !== null) {
      set("checked", ariaChecked === "mixed" ? "mixed" : ariaChecked === "true");
    } else if (UNCHECKED_BY_DEFAULT.has(role)) set("checked", false);
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
  for (const [attr, key] of ARIA_VALUES) {
    const value = el.getAttribute(attr);
    if (value !== null && value.trim() && !Number.isNaN(Number(value))) set(key, Number(value));
  }
  const text = el.getAttribute("aria-valuetext");
  if (text !== null) set("valuetext", clean(text, 60));
  if (role === "treeitem" || role === "row") {
    const level = levelOf(el, role);
    if (level) set("level", level);
  }
  const sort = el.getAttribute("aria-sort");
  if (sort && sort !== "none") set("sort", sort);
  const activeId = el.getAttribute("aria-activedescendant");
  if (activeId) {
    // The item a composite widget (listbox, menu, grid, combobox) says is active: where its
    // arrow keys are, while focus stays on the widget.
    const item = byIds(el, activeId)[0];
    const name = item ? nameOf(item) || clean(item.textContent, 60) : "";
    if (name) set("active", name);
  }
  // A select-only combobox (a button or div) shows its value as its content.
  if (role === "combobox" && (!out || out.value === undefined) && !el.isContentEditable) {
    let content = "";
    for (const kid of el.childNodes) content += textAlternative(kid, 1);
    set("value", clean(content, 60));
  }
  if (tag === "A" && el.hasAttribute("href")) set("href", el.getAttribute("href"));
  return out;
}

const ARIA_VALUES = [["aria-valuenow", "valuenow"], ["aria-valuemin", "valuemin"],
  ["aria-valuemax", "valuemax"]];

function disclosureOpen(summary) {
  // A <details>'s summary is expanded while it is open; null for a summary that opens nothing
  // (not the first summary of a details).
  const details = summary.parentElement;
  if (!details || details.tagName !== "DETAILS") return null;
  for (let kid = details.firstElementChild; kid; kid = kid.nextElementSibling) {
    if (kid.tagName === "SUMMARY") return kid === summary ? details.open : null;
  }
  return null;
}

function levelOf(el, role) {
  // aria-level, else for a tree item its depth: the groups between it and its tree, plus one.
  const level = Number(el.getAttribute("aria-level"));
  if (level > 0) return level;
  if (role !== "treeitem") return 0;
  let depth = 1;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const around = p.getAttribute("role");
    if (around === "tree" || around === "treegrid") break;
    if (around === "group") depth++;
  }
  return depth;
}

// The options a read lists of a <select>: the first OPTIONS_SHOWN labels, and how many more.
const OPTIONS_SHOWN = 12;
// Each select's options as last listed. They are kept while no mutation touched the select
// (options come and go, and labels change, by mutations inside it: tracking.js marks it), so a
// read of a page of many selects asks each for its options once; and a new list with the same
// labels is answered as the same array (the delta compares states by identity).
const optionLists = new WeakMap();

function optionsOf(select, set) {
  const t = reg.tracking;
  let known = optionLists.get(select);
  if (!known || known.epoch !== t.epoch || t.dirty.has(select)) {
    const options = select.options;
    const count = options.length;
    const labels = [];
    for (let i = 0; i < count && i < OPTIONS_SHOWN; i++) labels.push(clean(options[i].label, 40));
    const key = labels.join("\n");
    known = { epoch: t.epoch, count, key, list: known && known.key === key ? known.list : labels };
    optionLists.set(select, known);
    t.dirty.delete(select);
  }
  set("options", known.list);
  if (known.count > OPTIONS_SHOWN) set("optionsMore", known.count - OPTIONS_SHOWN);
}

const FORM_CONTROLS = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTGROUP", "OPTION",
  "FIELDSET"]);
