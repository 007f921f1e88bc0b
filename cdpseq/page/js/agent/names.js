// Accessible names, as reads and the page model report them.
//
// Names follow the accessible name computation in the cases pages use: aria-labelledby, then
// aria-label, then the host language (a <label>, an image's alt, a table's caption, a fieldset's
// legend), then the content for roles that take their name from it (each child's own text
// alternative: an image's alt, an SVG's <title>, a child's aria-label), then title and
// placeholder. What is hidden (aria-hidden, display:none, visibility:hidden) is no part of a name,
// as in Chrome: a required field's "*" or a switch's "On"/"Off" marked aria-hidden says nothing.

// Roles whose name comes from their content (the others are named by their author only).
// Fields and composite widgets are not: their content is their value or their items (an ARIA
// listbox is not named by its options' text, a contenteditable box not by what was typed).
const NAMED_BY_CONTENT = new Set(["button", "link", "checkbox", "radio", "switch", "tab",
  "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem", "gridcell", "heading",
  "cell", "columnheader", "rowheader", "row", "tooltip", "generic", "text", "listitem"]);

function byIds(el, ids) {
  // The elements of el's tree with these ids (aria-labelledby and the like).
  const root = el.getRootNode();
  return ids.split(/\s+/).map(id => root.getElementById ? root.getElementById(id) : null)
    .filter(Boolean);
}

function textAlternative(node, depth = 0, hiddenToo = false, skip = null) {
  // The text a node contributes to a name computed from content. What is not rendered gives
  // none (unless hiddenToo: a hidden element that a label or aria-labelledby points at gives
  // all its text, as in Chrome), nor does `skip` (the control a label's text is for).
  if (node.nodeType === 3) return node.data;
  if (node.nodeType !== 1 || depth > 20 || node === skip) return "";
  const tag = node.tagName;
  if (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "NOSCRIPT") return "";
  const attributes = node.hasAttributes();
  if (attributes) {
    // What hides content from a name is nearly always on the element itself: a class, hidden,
    // a style (a switch's "Off" while it is on); one without attributes is not asked, which
    // spares a walk over a grid's cells a visibility check per wrapper.
    if (depth > 0 && !hiddenToo && !renders(node)) return "";
    if (depth > 0 && node.getAttribute("aria-hidden") === "true") return "";
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
  const role = attributes ? node.getAttribute("role") : null;
  if (role === "group" || role === "menu" || role === "tree") return "";  // a treeitem's children
  let text = "";
  // By sibling links: cheaper than iterating a NodeList (a read names every grid cell).
  for (let kid = (node.shadowRoot || node).firstChild; kid; kid = kid.nextSibling) {
    const type = kid.nodeType;
    if (type === 3) {
      text += kid.data;
    } else if (type === 1 && kid.tagName === "SLOT") {
      // What the slot shows: the nodes assigned to it, else its own (fallback) content: a
      // component's label given as an attribute renders as a slot's fallback text.
      for (const assigned of kid.assignedNodes({ flatten: true })) {
        text += textAlternative(assigned, depth + 1, hiddenToo, skip);
      }
    } else {
      text += textAlternative(kid, depth + 1, hiddenToo, skip);
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
  // A label's text without the control it labels (a select inside its label would add all its
  // options' text to its own name) and without what it hides (a required field's "*" marked
  // aria-hidden); a label that is hidden itself gives all its text.
  return textAlternative(label, 0, !renders(label), control);
}

function referencedText(ref) {
  // The text of an element aria-labelledby points at: its aria-label, a field's value, else its
  // content (all of it when it is hidden itself: a hidden element kept to name another).
  const label = ref.getAttribute("aria-label");
  if (label && label.trim()) return label;
  if (ref.tagName === "INPUT" || ref.tagName === "TEXTAREA") return ref.value;
  return textAlternative(ref, 0, !renders(ref));
}

function contentName(el) {
  // A name from content: its text when it holds nothing but text, else each child's text
  // alternative (an icon's alt, an SVG's title, a child's aria-label; nothing of what is
  // hidden), else its CSS-generated text.
  const text = clean(el.textContent);
  if (text && !el.firstElementChild) return text;
  return clean(textAlternative(el)) || generatedContent(el);
}

function generatedContent(el) {
  // CSS ::before and ::after text (an icon button's glyph), which Chrome names it by.
  let text = "";
  for (const pseudo of ["::before", "::after"]) {
    if (!styledBy(el, pseudo === "::before" ? "before" : "after")) continue;
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
    const text = clean(byIds(el, labelledby).map(referencedText).join(" "));
    if (text) return text;
  }
  const aria = el.getAttribute("aria-label");
  return aria && aria.trim() ? clean(aria) : "";
}

// Elements a <label> can name.
const LABELABLE = new Set(["INPUT", "SELECT", "TEXTAREA", "METER", "PROGRESS", "OUTPUT"]);

function nameOf(el, rich = true) {
  const tag = el.tagName;
  if (tag !== "IMG" && !LABELABLE.has(tag) && (!rich || !el.hasAttributes())) {
    return contentName(el);
  }
  const authored = authorName(el);
  if (authored) return authored;
  if (LABELABLE.has(tag)) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "INPUT" && ["button", "submit", "reset"].includes(type)) {
      return clean(el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
    }
    if (tag === "INPUT" && type === "image") return clean(el.getAttribute("alt") || "");
    // A label that does not render names nothing (Chrome's rule): one shown only later (a
    // label that slides in) is not the field's name until then.
    const labels = labelsOf(el).filter(label => label.contains(el) || label.checkVisibility());
    if (labels.length) return clean(labels.map(l => labelText(l, el)).join(" "));
    // A <select> has no placeholder (a library's hidden one may carry the attribute).
    const placeholder = tag === "SELECT" ? "" : el.getAttribute("placeholder");
    return clean(placeholder || el.getAttribute("title") || "");
  }
  if (tag === "IMG") return clean(el.getAttribute("alt") || el.getAttribute("title") || "");
  const role = roleOf(el, rich);
  const fromContent = NAMED_BY_CONTENT.has(role) ? contentName(el) : "";
  return fromContent || clean(el.getAttribute("title") || "");
}

function containerName(el, role) {
  // A container is named by its author (aria-labelledby, aria-label), a table by its caption,
  // a fieldset by its legend, a figure by its figcaption, a dialog by its first heading, a tooltip
  // by its text.
  if (el.hasAttributes()) {
    const authored = authorName(el);
    if (authored) return authored;
  }
  const tag = el.tagName;
  const first = selector => {
    const found = el.querySelector(selector);
    return found ? clean(textAlternative(found)) : "";
  };
  if (tag === "TABLE") return el.caption ? clean(textAlternative(el.caption)) : "";
  if (tag === "FIELDSET") return first(":scope > legend");
  if (tag === "FIGURE") return first(":scope > figcaption");
  // A tooltip is named by what it says (as in Chrome), a bubble of a few words.
  if (role === "tooltip") return clean(textAlternative(el), 120);
  if (role === "dialog" || role === "alertdialog") {
    return first("h1, h2, h3, h4, h5, h6, [role=heading]");
  }
  return "";
}
