// What a reader sees of the page, as reads and the page model decide it: whether an element is
// rendered (display:contents, a checkbox drawn by its label), what is inert (an inert subtree,
// everything but a modal dialog), and the state a container gives the controls inside it
// (aria-disabled, a column header's aria-sort).

const VISIBLE = { checkVisibilityCSS: true };

function renders(el) {
  // Whether el is rendered: checkVisibility, except that an element that is display:contents
  // has no box of its own and renders when something inside it does (a button made
  // display:contents, a component's host). Its style is asked only when its parent renders (or
  // a display:contents wrapper in one): inside a hidden subtree nothing renders, whatever its
  // style, and a read asks this of every hidden control.
  if (el.checkVisibility(VISIBLE)) return true;
  const wrappers = [];
  let parent = composedParent(el);
  for (; parent && !parent.checkVisibility(VISIBLE); parent = composedParent(parent)) {
    if (wrappers.length === 2) return false;
    wrappers.push(parent);
  }
  if (!parent) return false;
  for (const wrapper of wrappers) {
    if (getComputedStyle(wrapper).display !== "contents") return false;
  }
  return getComputedStyle(el).display === "contents" && contentsRender(el, 0);
}

function contentsRender(el, depth) {
  // Whether something inside a display:contents element renders: an element, or text with a box.
  const kids = el.shadowRoot ? el.shadowRoot.childNodes
    : el.tagName === "SLOT" ? el.assignedNodes({ flatten: true }) : el.childNodes;
  for (const kid of kids) {
    if (kid.nodeType === 1) {
      if (kid.checkVisibility(VISIBLE)) return true;
      if (depth < 4 && getComputedStyle(kid).display === "contents" &&
        contentsRender(kid, depth + 1)) return true;
    } else if (kid.nodeType === 3 && kid.data.trim()) {
      const range = kid.ownerDocument.createRange();
      range.selectNodeContents(kid);
      if (range.getClientRects().length) return true;
    }
  }
  return false;
}

function rendered(el, tag) {
  // Whether a reader sees a control: it renders (and is no form proxy), or it is a checkbox or
  // radio that shows through its label instead (a CSS toggle switch hides its <input> and draws
  // the label; the browser's accessibility tree exposes the control through the label, and
  // check clicks it).
  if (renders(el)) return !formProxy(el, tag);
  if (tag !== "INPUT" || (el.type !== "checkbox" && el.type !== "radio")) return false;
  for (const label of labelsOf(el)) if (renders(label)) return true;
  return false;
}

function formProxy(el, tag) {
  // Whether a field is one a page keeps for its form alone: out of the tab order by its
  // tabindex and hidden from assistive technology (aria-hidden on it or around it), as a custom
  // select's native <select> or <input> is. What a person uses is the custom control.
  if (!FIELD_TAGS.has(tag) || !el.hasAttribute("tabindex") || el.tabIndex >= 0) return false;
  for (let node = el; node; node = composedParent(node)) {
    if (node.getAttribute("aria-hidden") === "true") return true;
  }
  return false;
}

const MODAL_ROLES = new Set(["dialog", "alertdialog"]);
// The document's dialogs: a live list the browser keeps up to date (cheap to ask again).
const dialogs = document.getElementsByTagName("dialog");

function topModal() {
  // The modal dialog on top, or null: everything outside it takes no input and Chrome's
  // accessibility tree leaves it out. A <dialog> opened with showModal() (the browser makes the
  // rest inert), or a dialog a script made modal (aria-modal: its backdrop covers the rest)
  // that holds the focus, as a modal does. The one focus is in, else the last open <dialog> of
  // the document's; a modal in a shadow root is found by focus alone. Asked once per walk.
  if (modalNow !== undefined) return modalNow;
  let found = null;
  const active = deepActive();
  for (let node = active; node && !found; node = composedParent(node)) {
    if (node.tagName === "DIALOG" ? node.open && node.matches(":modal")
      : node.getAttribute("aria-modal") === "true" && MODAL_ROLES.has(node.getAttribute("role"))) {
      found = node;
    }
  }
  if (!found) {
    for (const dialog of dialogs) if (dialog.open && dialog.matches(":modal")) found = dialog;
  }
  if (hintCounts) modalNow = found;
  return found;
}

function outsideModal(el, modal) {
  // Whether el is neither the modal dialog, nor inside it, nor around it.
  return !composedContains(el, modal) && !composedContains(modal, el);
}

// Attributes that can make an element interactive, or name it or give it state beyond what its
// tag says. The walk looks at the names of an element's attributes (most elements have none)
// and takes read()'s fast path for the elements that carry none of these: cheaper than one
// native query of the twenty selectors per root, which matches each selector to every element.
const RICH = "[role],[onclick],[tabindex],[contenteditable],[aria-label],[aria-labelledby]," +
  "[aria-checked],[aria-disabled],[aria-expanded],[aria-selected],[title],[aria-pressed]," +
  "[aria-current],[aria-invalid],[aria-readonly],[aria-required],[aria-valuenow]," +
  "[aria-valuetext],[aria-live],[aria-level],[draggable=true],[aria-sort],[aria-valuemin]," +
  "[aria-valuemax],[aria-activedescendant],[inert]";
// The attribute names (an attribute with a value, [draggable=true], by its name: the row
// judges its value).
const RICH_ATTRIBUTES = new Set(RICH.split(",").map(selector => selector.slice(1, -1).split("=")[0]));

function carriesRich(el) {
  if (!el.hasAttributes()) return false;
  for (const name of el.getAttributeNames()) if (RICH_ATTRIBUTES.has(name)) return true;
  return false;
}

// What richFlags() says of an element: it carries a RICH attribute; it is inert (no input
// reaches it or anything inside it); it gives the controls inside it a state (scopeOf); it
// says which of its items is active (aria-activedescendant).
const RICH_FLAG = 1, INERT_FLAG = 2, SCOPE_FLAG = 4, ACTIVE_FLAG = 8;

function richFlags(el) {
  // carriesRich, and what else its attribute names tell, from one look at them.
  if (!el.hasAttributes()) return 0;
  let flags = 0;
  for (const name of el.getAttributeNames()) {
    if (!RICH_ATTRIBUTES.has(name)) continue;
    flags |= RICH_FLAG;
    if (name === "inert") flags |= INERT_FLAG;
    else if (name === "aria-disabled" || name === "aria-sort") flags |= SCOPE_FLAG;
    else if (name === "aria-activedescendant") flags |= ACTIVE_FLAG;
  }
  return flags;
}

function scopeOf(el) {
  // What an element gives the controls inside it, or null: an aria-disabled container disables
  // them (the nearest aria-disabled, true or false, decides, as Chrome exposes it), a column
  // header's aria-sort is the sort state of the button in it.
  if (!el.firstElementChild) return null;
  const disabled = el.getAttribute("aria-disabled");
  const sort = el.getAttribute("aria-sort");
  const scope = { el, disabled: disabled === null ? undefined : disabled.toLowerCase() === "true",
    sort: sort && sort !== "none" ? sort : undefined };
  return scope.disabled === undefined && scope.sort === undefined ? null : scope;
}

function scopedState(scopes, state, rich, role) {
  // state with what the scopes around an element give it (innermost first); a control with
  // ARIA of its own (rich) has its aria-disabled from stateOf already.
  let disabled, sort;
  for (let i = scopes.length - 1; i >= 0; i--) {
    if (disabled === undefined) disabled = scopes[i].disabled;
    if (sort === undefined) sort = scopes[i].sort;
  }
  const more = {};
  if (disabled && !rich && ARIA_DISABLABLE.has(role)) more.disabled = true;
  if (sort && !(state && state.sort)) more.sort = sort;
  for (const _ in more) return { ...(state || {}), ...more };
  return state;
}

function scopesAbove(el) {
  // The scopes around an element, outermost first (a walk that starts inside the page).
  const found = [];
  for (let p = composedParent(el); p; p = composedParent(p)) {
    const scope = p.hasAttributes() ? scopeOf(p) : null;
    if (scope) found.unshift(scope);
  }
  return found;
}
