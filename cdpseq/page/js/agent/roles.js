// Roles of elements and whether they are controls, as reads and the page model report them.
// `rich` is false for elements with no attributes at all (most of a big page): they take fast
// paths that need no attribute lookups.

const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "textbox", "searchbox", "combobox", "listbox", "slider",
  "spinbutton", "treeitem", "gridcell", "meter", "progressbar",
]);
// Tags a read asks about whatever their attributes: controls, and the indicators listed with
// them (a meter's or progress bar's value is state a user reads).
const NATIVE_INTERACTIVE = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY",
  "METER", "PROGRESS"]);
// Tags that frameworks commonly make clickable with a handler the DOM does not show.
const CLICKABLE_TAGS = new Set(["DIV", "SPAN", "LI", "IMG", "SVG", "I"]);
const HEADINGS = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };

function roleOf(el, rich = true) {
  const explicit = rich && el.hasAttributes() && el.getAttribute("role");
  if (explicit) return explicit.trim().split(/\s+/)[0];
  const tag = el.tagName;
  switch (tag) {
    // A link without href that takes a click is a link too, as Chrome has it (the browser sees
    // the handler; the page shows a pointer cursor): a date picker's "Prev" and "Next".
    case "A": return el.hasAttribute("href") || clickedAnchor(el, rich) ? "link" : "generic";
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
    case "LI": return "listitem";
    case "METER": return "meter";
    case "PROGRESS": return "progressbar";
    case "TR": return "row";
    // A cell of an ARIA grid is a gridcell (a date picker's days, a spreadsheet's cells). Only
    // a cell that carries a RICH attribute (tabindex, ARIA) is asked: the read's walk looks at
    // no other, and a grid's plain cells are its text.
    case "TD": return rich && carriesRich(el) && inGrid(el) ? "gridcell" : "cell";
    case "TH": return headerRole(el);
    case "INPUT": {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (type === "checkbox") return "checkbox";
      if (type === "radio") return "radio";
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      // A file input is a button that opens the file chooser (Chrome's role too).
      if (["button", "submit", "reset", "image", "file"].includes(type)) return "button";
      if (el.hasAttribute("list")) return "combobox";
      return "textbox";
    }
  }
  // The editing host is the textbox; what it holds (an editor's paragraphs, its bold text) is
  // its value, not fields of their own (Chrome's roles for them are their tags').
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) {
    return "textbox";
  }
  return "generic";
}

function clickedAnchor(a, rich) {
  // Whether an <a> without href takes clicks: a handler in its markup, or a pointer cursor of
  // its own (not one it inherits).
  if (rich && a.hasAttribute("onclick")) return true;
  if (getComputedStyle(a).cursor !== "pointer") return false;
  const parent = a.parentElement;
  return !parent || getComputedStyle(parent).cursor !== "pointer";
}

function inGrid(cell) {
  // Whether a table cell is in an ARIA grid or treegrid (its table's role), asked once per row
  // within a walk.
  const row = cell.parentElement;
  if (!row) return false;
  let grid = gridRows && gridRows.get(row);
  if (grid === undefined) {
    const table = row.closest("table");
    const role = table && table.getAttribute("role");
    grid = role === "grid" || role === "treegrid";
    if (gridRows) gridRows.set(row, grid);
  }
  return grid;
}

function headerRole(th) {
  // A <th> heads its row when it says so, or when it starts a row of data cells; else its column.
  if (th.scope === "row") return "rowheader";
  if (th.scope === "col") return "columnheader";
  const row = th.parentElement;
  const section = row && row.parentElement;
  if (!section || section.tagName === "THEAD") return "columnheader";
  for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) {
    if (cell.tagName === "TD") return "rowheader";
  }
  return "columnheader";
}

function isInteractive(el, role, rich = true) {
  const tag = el.tagName;
  if (tag === "A" && (el.hasAttribute("href") || INTERACTIVE_ROLES.has(role))) return true;
  if (tag === "BUTTON" || tag === "SELECT" || tag === "TEXTAREA" || tag === "SUMMARY") return true;
  if (tag === "INPUT") return (el.getAttribute("type") || "").toLowerCase() !== "hidden";
  // A grid cell that holds the control to press (a date picker's day button) is that
  // control's place, unless it takes focus itself: the control is listed, once.
  if (INTERACTIVE_ROLES.has(role)) {
    return role !== "gridcell" || el.hasAttribute("tabindex") || !el.querySelector(ACTS_INSIDE);
  }
  if (rich) {
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) {
      return true;
    }
    if (el.hasAttribute("onclick")) return true;
    if (el.getAttribute("draggable") === "true") return true;  // HTML5 drag and drop's items
    // In the tab order (tabindex -1 is focus by script only), with something to say (empty
    // focusable boxes are a dialog's focus traps), and no role that says otherwise.
    if (CLICKABLE_TAGS.has(tag) && (role === "generic" || role === "listitem") &&
      el.tabIndex >= 0 &&
      (el.textContent.trim() || el.hasAttribute("aria-label") || el.firstElementChild)) return true;
    if (TABLE_PARTS.has(role) && tablePartActs(el, role)) return true;
  }
  // An element that says it has no role (presentation, none) is a part of what it is in: a
  // grid's header label under the header that takes the click.
  if (CLICKABLE_TAGS.has(tag) && role !== "presentation" && role !== "none") {
    // Framework click handlers leave no trace in the DOM; a pointer cursor that starts here
    // (not inherited from an interactive ancestor) is the common tell; a grab or move cursor
    // is a drag handle's (sortables on pointer events leave no other trace). An element no rule
    // gives a cursor inherits its parent's (seen.js's styledBy): no cursor starts there.
    const parent = el.parentElement;
    if (parent && !parent.shadowRoot && !styledBy(el, "cursor")) return false;
    const cursor = getComputedStyle(el).cursor;
    if (cursor === "pointer" || cursor === "grab" || cursor === "move") {
      return (!parent || getComputedStyle(parent).cursor !== cursor) && !labelsItem(el) &&
        !(cursor === "pointer" && wrapsControl(el));
    }
  }
  return false;
}

// Items whose own text row a page often makes the thing that takes the click (a tree's
// label row): the item is the control, the row its place.
const LABELLED_ITEMS = "[role=treeitem], [role=option], [role=menuitem], [role=tab]";

function labelsItem(el) {
  // Whether a pointer-cursor element is its item's own text (a tree item's label row): the
  // item is listed and a click on it aims there, so the row is not listed again. The item may
  // be a web component around el's shadow root (an option component's row, its label slotted).
  const item = itemAround(el);
  if (!item) return false;
  const text = flatText(el).replace(/\s+/g, " ").trim();
  if (!text) return false;
  let own = "";
  for (const child of flatKids(item)) {
    if (child.nodeType === 1 && child.getAttribute("role") === "group") continue;
    own += flatText(child);
  }
  return own.replace(/\s+/g, " ").trim() === text;
}

function itemAround(el) {
  // The nearest LABELLED_ITEMS element around el, across shadow roots (from a shadow root to
  // its host), or null.
  for (let node = el.parentElement, root = el.getRootNode(); ;) {
    const item = node && node.closest(LABELLED_ITEMS);
    if (item) return item;
    if (!(root instanceof ShadowRoot)) return null;
    node = root.host;
    root = node.getRootNode();
  }
}
// Controls a pointer-cursor wrapper may hold as all its content (a menu's <li> around its
// option): the control is listed, the wrapper is its place.
const WRAPPED_CONTROLS = `${LABELLED_ITEMS}, a[href], button, [role=button], [role=link], ` +
  "[role=checkbox], [role=radio], [role=switch], [role=menuitemcheckbox], [role=menuitemradio]";

function wrapsControl(el) {
  // Whether a pointer-cursor element holds one control that carries all its text: Chrome
  // exposes the wrapper as nothing of its own, and a click on it reaches the control.
  const control = el.firstElementChild && el.querySelector(WRAPPED_CONTROLS);
  if (!control) return false;
  const text = el.textContent.trim();
  return text !== "" && control.textContent.trim() === text;
}
// Roles of table parts that can take focus or a click of their own.
const TABLE_PARTS = new Set(["cell", "columnheader", "rowheader", "row"]);
// What is interactive inside a sortable column header (its sort button, say).
const ACTS_INSIDE = "a[href], button, input, select, textarea, [role=button], [role=link], " +
  "[tabindex]";

function tablePartActs(el, role) {
  // A cell or header that takes focus (a spreadsheet's cells, a tree grid's rows), a row a
  // grid lets select or expand, a column header that sorts by a click of its own (aria-sort,
  // and no button inside to press instead).
  if (el.hasAttribute("tabindex")) return true;
  if (role === "row") return el.hasAttribute("aria-expanded") || el.hasAttribute("aria-selected");
  return role === "columnheader" && el.hasAttribute("aria-sort") && !el.querySelector(ACTS_INSIDE);
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
