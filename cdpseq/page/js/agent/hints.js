// Selector hints: a readable selector for each element a read or delta reports.

const siblingIndex = new WeakMap();
function nthOfType(el) {
  const parent = el.parentNode;
  if (!parent) return 1;
  let map = siblingIndex.get(parent);
  if (!map) {
    map = new Map();
    const counts = {};
    for (const kid of parent.children) {
      counts[kid.tagName] = (counts[kid.tagName] || 0) + 1;
      map.set(kid, counts[kid.tagName]);
    }
    siblingIndex.set(parent, map);
  }
  return map.get(el) || 1;
}

const cssEscape = s => (globalThis.CSS && CSS.escape ? CSS.escape(s) : s);

function strongSelector(el) {
  // A selector that names this element on purpose: test id, stable-looking id, form name.
  if (!el.hasAttributes()) return null;
  const testid = el.getAttribute("data-testid");
  if (testid) return `[data-testid="${testid}"]`;
  if (el.id && !/\d{3,}|^:/.test(el.id)) return `#${cssEscape(el.id)}`;
  const name = el.getAttribute("name");
  if (name && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA")) {
    return `${el.tagName.toLowerCase()}[name="${name}"]`;
  }
  return null;
}

function selectorOf(el) {
  const strong = strongSelector(el);
  if (strong) return strong;
  const parts = [];
  let node = el;
  while (node && node.nodeType === 1 && parts.length < 6) {
    if (node !== el && node.id && !/\d{3,}/.test(node.id)) {
      parts.unshift(`#${cssEscape(node.id)}`);
      break;
    }
    const tag = node.tagName.toLowerCase();
    if (tag === "html" || tag === "body") { parts.unshift(tag); break; }
    parts.unshift(`${tag}:nth-of-type(${nthOfType(node)})`);
    node = node.parentNode;
  }
  return parts.join(" > ");
}

function hintOf(el) {
  // Elements inside iframes or shadow roots: the host's hint, then ">>", then the inner hint.
  let hint = selectorOf(el);
  let root = el.getRootNode();
  while (true) {
    if (root instanceof ShadowRoot) {
      hint = `${selectorOf(root.host)} >> ${hint}`;
      root = root.host.getRootNode();
    } else if (root.defaultView && root.defaultView.frameElement) {
      const frame = root.defaultView.frameElement;
      hint = `${selectorOf(frame)} >> ${hint}`;
      root = frame.getRootNode();
    } else {
      return hint;
    }
  }
}
