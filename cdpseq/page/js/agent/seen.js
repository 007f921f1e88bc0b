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

// -- what a root's style sheets may give an element --------------------------------------------
// A read asks the cursor of every <div> and <span> (isInteractive) and the ::before and ::after
// text of every empty control (generatedContent): a style computation each, and one for a
// pseudo-element that does not exist is a whole style resolution. Within one walk, once a root
// has been asked a few of these, its rules are looked at: only an element that a rule setting
// `cursor` matches can have a cursor of its own (else it inherits its parent's), only one whose
// ::before or ::after a rule gives `content` can show generated text. The others are answered
// without a style computation. A root whose rules cannot all be read (a cross-origin sheet), or
// whose reach a selector does not tell (nesting, @scope, keyframes, running animations), is
// asked element by element.

// A root is asked this often before its rules are looked at (a small page is asked less), and
// at least an eighth as often as it has rules (a question costs several rules' look).
const ASKED_BEFORE_INDEX = 64;
// Rules that hold rules which apply as if they stood alone (a superset of what applies now).
const GROUPING_RULES = new Set(["CSSMediaRule", "CSSSupportsRule", "CSSLayerBlockRule",
  "CSSContainerRule"]);
// ::before and ::after in a selector (not an escaped colon of a class name: .md\:before\:x).
const BEFORE = /(?<!\\)::?before\b/i, AFTER = /(?<!\\)::?after\b/i;
const PSEUDOS = /(?<!\\)::?(?:before|after)\b/gi, QUOTED = /"[^"]*"|'[^']*'/g;

function styledBy(el, key) {
  // Whether a rule of el's root may give el `key` ("cursor", "before" or "after" content): true
  // when one may, or when that cannot be told (no index, an inline style, a part or a shadow
  // root that rules of another root reach, slotted content).
  if (!styledIn) return true;
  if (el.hasAttributes() && (el.hasAttribute("style") || el.hasAttribute("part"))) return true;
  if (el.shadowRoot || el.assignedSlot) return true;
  const root = el.getRootNode();
  let known = styledIn.get(root);
  if (known === undefined) styledIn.set(root, known = { asked: 0, index: null, wait: 0 });
  if (known.index === null) {
    if (++known.asked < ASKED_BEFORE_INDEX || known.asked < known.wait) return true;
    if (!known.wait) {
      known.wait = ruleCount(root) / 8;
      if (known.asked < known.wait) return true;
    }
    known.index = indexStyles(root) || false;
  }
  return !known.index || known.index[key].has(el);
}

function ruleCount(root) {
  // How many rules the root's sheets hold at their top (Infinity: a sheet cannot be read).
  let count = 0;
  try {
    for (const sheet of root.styleSheets) count += sheet.cssRules.length;
    for (const sheet of root.adoptedStyleSheets || []) count += sheet.cssRules.length;
  } catch (e) {
    return Infinity;
  }
  return count;
}

function indexStyles(root) {
  // {cursor, before, after}: the elements of a document or shadow root that rules may give a
  // cursor or generated content; null when that cannot be told.
  const selectors = { cursor: [], before: [], after: [] };
  try {
    if ((root.getAnimations ? root : document).getAnimations().length) return null;
    for (const sheet of [...root.styleSheets, ...(root.adoptedStyleSheets || [])]) {
      if (!indexRules(sheet.cssRules, selectors)) return null;
    }
    const index = {};
    for (const key in selectors) {
      const list = selectors[key];
      index[key] = new Set(list.length ? root.querySelectorAll(list.join(",")) : []);
    }
    return index;
  } catch (e) {
    return null;  // a sheet that cannot be read, a selector that no query takes
  }
}

function indexRules(rules, selectors) {
  // Add the selectors of the rules that set a cursor or content (the latter without their
  // ::before or ::after); false when what a rule reaches cannot be told from its selector.
  for (const rule of rules) {
    const kind = rule.constructor.name;
    if (kind === "CSSImportRule") {
      if (rule.styleSheet && !indexRules(rule.styleSheet.cssRules, selectors)) return false;
    } else if (GROUPING_RULES.has(kind)) {
      if (!indexRules(rule.cssRules, selectors)) return false;
    } else if (kind !== "CSSStyleRule") {
      if (rule.cssRules) return false;  // keyframes, @scope, @starting-style, ...
    } else {
      if (rule.cssRules && rule.cssRules.length) return false;  // nested rules
      const style = rule.style, text = rule.selectorText;
      if (style.getPropertyValue("cursor") || style.getPropertyValue("all")) {
        selectors.cursor.push(text);
      }
      if (!style.getPropertyValue("content")) continue;
      const before = BEFORE.test(text), after = AFTER.test(text);
      if (!before && !after) continue;
      // A string that holds one of their names ([title=":after"]) would be cut by the replace.
      if (/before|after/i.test((text.match(QUOTED) || []).join(""))) return false;
      const element = text.replace(PSEUDOS, "");
      if (before) selectors.before.push(element);
      if (after) selectors.after.push(element);
    }
  }
  return true;
}
