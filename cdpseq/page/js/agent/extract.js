// extract: an element's (or the page's main content's) rendered HTML, rendered text, or a
// form's current values. The HTML is what the reader sees, not the source: hidden elements,
// scripts, styles and controls are left out, links and images get absolute URLs, open shadow
// roots are flattened in (slots replaced by what they show). Markdown is made from it on the
// Python side by a library (markdownify); nothing here converts.

const EXTRACT_DROPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META",
  "LINK", "TITLE", "IFRAME", "FRAME", "OBJECT", "EMBED", "CANVAS", "SVG", "INPUT", "SELECT",
  "TEXTAREA", "BUTTON"]);
const EXTRACT_ATTRIBUTES = { A: ["href", "title"], IMG: ["src", "alt", "title"],
  TD: ["colspan", "rowspan"], TH: ["colspan", "rowspan"], OL: ["start"], CODE: ["class"],
  PRE: ["class"] };
const EXTRACT_VOID = new Set(["BR", "HR", "IMG", "WBR"]);
// Past this much HTML the copy stops (and says so): the Markdown is cut much shorter anyway.
const EXTRACT_HTML_LIMIT = 4000000;

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function contentRoot(el) {
  // The element asked for, else the page's main content: its one visible <main> (or
  // role=main), else the body.
  if (el) return el;
  for (const main of document.querySelectorAll("main, [role=main]")) {
    if (main.checkVisibility(VISIBLE)) return main;
  }
  return document.body || document.documentElement;
}

function shown(el) {
  if (el.checkVisibility(VISIBLE)) return true;
  // display: contents has no box of its own, but its children render.
  return getComputedStyle(el).display === "contents";
}

function renderedHtml(root) {
  // Iterative (a tree may be nested deeper than the JavaScript stack goes): `pending` holds the
  // nodes still to write and the end tags of the elements open, the next one last. Once the
  // text passed the limit, no more nodes are written, but every open element is closed.
  const out = [];
  let size = 0;
  let truncated = false;
  const pending = [root];
  const later = nodes => { for (let i = nodes.length - 1; i >= 0; i--) pending.push(nodes[i]); };
  while (pending.length) {
    const node = pending.pop();
    if (typeof node === "string") {
      out.push(node);
      continue;
    }
    if (truncated) continue;
    if (node.nodeType === 3) {
      out.push(escapeHtml(node.data));
      size += node.data.length;
      if (size > EXTRACT_HTML_LIMIT) truncated = true;
      continue;
    }
    if (node.nodeType === 11) later(node.childNodes);
    if (node.nodeType !== 1) continue;
    const tag = node.tagName.toUpperCase();
    if (tag === "SLOT") {
      const assigned = node.assignedNodes({ flatten: true });
      later(assigned.length ? assigned : node.childNodes);
      continue;
    }
    if (EXTRACT_DROPPED.has(tag) || !shown(node)) continue;
    let open = `<${tag.toLowerCase()}`;
    for (const name of EXTRACT_ATTRIBUTES[tag] || []) {
      let value = node.getAttribute(name);
      if (value === null) continue;
      if (name === "href" || name === "src") value = node[name] || value;  // absolute
      open += ` ${name}="${escapeHtml(value)}"`;
    }
    out.push(open + ">");
    if (EXTRACT_VOID.has(tag)) continue;
    pending.push(`</${tag.toLowerCase()}>`);
    later(node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes);
  }
  return { html: out.join(""), truncated };
}

function extractContent(el, args) {
  const root = contentRoot(el);
  if (!root) return { error: "NODE_NOT_FOUND", reason: "the page has no content yet", retry: true };
  if (el && !shown(el)) {
    return { error: "NOT_ACTIONABLE", reason: hiddenReason(el) || "hidden", retry: true };
  }
  const from = describe(root);
  if (args.format === "text") return { text: root.innerText || "", from };
  return { ...renderedHtml(root), from, base: document.baseURI };
}

const FORM_FIELDS = "input, select, textarea";
const UNVALUED = new Set(["submit", "reset", "button", "image"]);
// A password is never read back: what a model sees ends up in transcripts and logs, and the
// secret scrubbing knows only the secrets cdpseq itself filled. Its presence is told, not its
// value or its length.
const PASSWORD_SHOWN = "********";

function formOf(el) {
  if (!el) {
    return document.forms[0] || null;
  }
  if (el.tagName === "FORM") return el;
  return el.closest("form") || el;
}

function extractForm(el) {
  const form = formOf(el);
  if (!form) return { error: "NODE_NOT_FOUND", reason: "the page has no form", retry: true };
  const fields = form.tagName === "FORM" ? [...form.elements] : [...form.querySelectorAll(FORM_FIELDS)];
  const values = {};
  const groups = new Map();  // checkbox name -> how many boxes share it
  const redacted = [];
  let unnamed = 0;
  for (const field of fields) {
    if (field.type === "checkbox" && field.name) {
      groups.set(field.name, (groups.get(field.name) || 0) + 1);
    }
  }
  for (const field of fields) {
    const tag = field.tagName;
    if (!["INPUT", "SELECT", "TEXTAREA"].includes(tag)) continue;
    const type = tag === "INPUT" ? field.type : tag.toLowerCase();
    if (UNVALUED.has(type)) continue;
    const key = field.name || field.id;
    if (!key) { unnamed++; continue; }
    if (type === "checkbox") {
      if ((groups.get(field.name) || 1) > 1) {
        // A group of boxes under one name: the values of the checked ones, as a form sends.
        if (!Array.isArray(values[key])) values[key] = [];
        if (field.checked) values[key].push(field.value);
      } else {
        values[key] = field.checked;
      }
    } else if (type === "radio") {
      if (!(key in values)) values[key] = null;
      if (field.checked) values[key] = field.value;
    } else if (tag === "SELECT") {
      const chosen = [...field.selectedOptions].map(o => o.value);
      values[key] = field.multiple ? chosen : (chosen.length ? chosen[0] : null);
    } else if (type === "password") {
      values[key] = field.value ? PASSWORD_SHOWN : "";
      redacted.push(key);
    } else if (type === "file") {
      values[key] = [...(field.files || [])].map(f => f.name);
    } else {
      values[key] = field.value;
    }
  }
  return { values, from: describe(form), redacted, unnamed };
}

function extractOp(el, args) {
  return args.format === "form" ? extractForm(el) : extractContent(el, args);
}

ops.extract = extractOp;
