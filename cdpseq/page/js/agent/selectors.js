// Selectors, as act steps take them and read_page's hints print them:
//   css                     a CSS selector
//   role=button[name="Go"]  a visible element with that role and exactly that accessible name
//   a >> b                  b is looked for inside what a matched: its shadow root (then its own
//                           children), its frame's document, or its subtree
//   a >> nth=2              the third of a's matches
// A part matches in the first root, in breadth-first order from where it looks (the document,
// or inside the previous match), that has a match at all: the document's own elements first,
// then open shadow roots and same-origin frames below it. A chain whose next part has to look
// inside a cross-origin frame (out of process: no document here) stops there: crossing() says
// which frames and what is left of the chain, for that frame's own agent (page/frames.py).

const ROLE_PART = /^role=([a-z]+)(?:\[name=("(?:[^"\\]|\\.)*")\])?$/;
const NTH_PART = /^nth=(\d+)$/;

function parseSelector(selector) {
  // The parts of a chain, each {css}, {role, name?} or {nth}; throws a SyntaxError saying why.
  const parts = [];
  let depth = 0, quote = null, start = 0;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    else if (ch === ">" && selector[i + 1] === ">" && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  parts.push(selector.slice(start));
  const probe = document.createDocumentFragment();
  return parts.map((raw, index) => {
    const text = raw.trim();
    if (!text) throw new SyntaxError("an empty part around >>");
    const nth = NTH_PART.exec(text);
    if (nth) {
      if (index === 0) throw new SyntaxError("nth= needs a selector before it");
      return { nth: Number(nth[1]), text };
    }
    if (text.startsWith("role=")) {
      const m = ROLE_PART.exec(text);
      if (!m) throw new SyntaxError(`${text} is not role=ROLE or role=ROLE[name="NAME"]`);
      const name = m[2] === undefined ? undefined : m[2].slice(1, -1).replace(/\\(.)/g, "$1");
      return { role: m[1], name, text };
    }
    probe.querySelector(text);  // throws a SyntaxError for invalid CSS
    return { css: text, text };
  });
}

function isFrame(el) {
  return el.tagName === "IFRAME" || el.tagName === "FRAME";
}

function frameDocument(frame) {
  // A frame element's document, or null when it lives in another process (another site).
  try { return frame.contentDocument; } catch (e) { return null; }
}

function insideOf(el) {
  // The roots a later part of a chain looks in, for a match of the part before.
  if (el === document) return [document];
  if (isFrame(el)) {
    const doc = frameDocument(el);
    return doc ? [doc] : [];
  }
  return el.shadowRoot ? [el.shadowRoot, el] : [el];
}

function nestedRoots(root) {
  // The open shadow roots and same-origin frame documents below root (not root itself).
  const found = [];
  for (const el of root.querySelectorAll("*")) {
    if (el.shadowRoot) found.push(el.shadowRoot);
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
      try { if (el.contentDocument) found.push(el.contentDocument); } catch (e) { /* x-origin */ }
    }
  }
  return found;
}

function matchesIn(root, part) {
  if (part.css) return Array.from(root.querySelectorAll(part.css));
  const out = [];
  for (const el of root.querySelectorAll("*")) {
    if (roleOf(el) === part.role && el.checkVisibility({ checkVisibilityCSS: true }) &&
      (part.name === undefined || nameOf(el) === part.name)) out.push(el);
  }
  return out;
}

function matchFrom(roots, part) {
  // The matches of one part in the first root (breadth first from roots) that has any.
  const queue = [...roots];
  while (queue.length) {
    const root = queue.shift();
    const found = matchesIn(root, part);
    if (found.length) return found;
    queue.push(...nestedRoots(root));
  }
  return [];
}

function walkChain(selector) {
  // {found: every element the selector matches (the last part's matches), in order}; or, when
  // it matches nothing here and a part had to look inside cross-origin frames, {frames: those
  // frame elements, rest: the chain from that part on}.
  let found = [document];
  const parts = parseSelector(selector);
  for (const [index, part] of parts.entries()) {
    if (part.nth !== undefined) {
      found = part.nth < found.length ? [found[part.nth]] : [];
      continue;
    }
    const next = [];
    for (const el of found) next.push(...matchFrom(insideOf(el), part));
    const crossed = found.filter(el => isFrame(el) && !frameDocument(el));
    found = [...new Set(next)];
    if (!found.length) {
      return crossed.length ? { found, frames: crossed,
        rest: parts.slice(index).map(p => p.text).join(" >> ") } : { found };
    }
  }
  return { found };
}

function queryChain(selector) {
  // Every element the selector matches (the last part's matches), in order.
  return walkChain(selector).found;
}

function crossing(selector) {
  // Where a selector that matches nothing here goes on in cross-origin frames: {frames, rest}
  // (frames counts them), or null.
  const walked = walkChain(selector);
  return walked.frames ? { frames: walked.frames.length, rest: walked.rest } : null;
}

function frameOwner(selector, index) {
  // The index-th cross-origin frame element a selector goes on in (for the browser to name
  // its frame).
  const walked = walkChain(selector);
  return walked.frames ? walked.frames[index] || null : null;
}

function deepQuery(selector) {
  // {el} for the first match, null for none, {error} for a selector that is not valid.
  try {
    const [el] = queryChain(selector);
    return el ? { el } : null;
  } catch (e) {
    return { error: "INVALID_SELECTOR", reason: `invalid selector ${selector}: ${e.message}` };
  }
}

function deepQueryAll(selector) {
  return queryChain(selector);
}

function checkSelectors(selectors) {
  // For each selector, null when it is valid, else why not: the whole request is checked
  // before its first step runs.
  return selectors.map(selector => {
    try {
      parseSelector(selector);
      return null;
    } catch (e) {
      return e.message;
    }
  });
}
