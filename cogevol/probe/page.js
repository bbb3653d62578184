// Page-side helpers, evaluated by the probe. Installed as window.__cogevolProbe.
(() => {
  const G = window.__cogevol;
  if (!G) return;
  const hash = (str) => { let h1 = 0xdeadbeef, h2 = 0x41c6ce57; for (let i = 0; i < str.length; i++) { const c = str.charCodeAt(i); h1 = Math.imul(h1 ^ c, 2654435761); h2 = Math.imul(h2 ^ c, 1597334677); } h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909); h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909); return (h2 >>> 0).toString(16) + (h1 >>> 0).toString(16); };
  const allElements = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el); if (el.shadowRoot) allElements(el.shadowRoot, out); } return out; };
  // `clear`: a transparent element counts too (laid out where a pointer reaches it: a button
  // shown only on :hover)
  const visible = (el, clear = false) => {
    const r = el.getBoundingClientRect(); if (r.width < 2 || r.height < 2) return false;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
      const st = getComputedStyle(e); if (st.display === 'none' || st.visibility === 'hidden' || (!clear && parseFloat(st.opacity) === 0)) return false;
    }
    return true;
  };
  // shown as a person sees it, whatever its size (CSS visibility and opacity up the tree)
  const shown = (n) => (n.checkVisibility ? n.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : visible(n));
  // native controls are clicked where a person clicks them; a board is a larger plain element
  const NATIVE = /^(BUTTON|A|INPUT|SELECT|TEXTAREA|LABEL|SUMMARY|OPTION|CANVAS)$/;
  const BOARD_SHARE = 0.1;
  const TYPED = new Set(['date', 'datetime-local', 'month', 'week', 'time', 'color', 'file', 'email', 'tel', 'url', 'password']);
  const TEXT = new Set(['', 'text', 'search', 'number']);
  // a pointer over el reaches a listener: on it, an ancestor, the document or the window, added
  // with addEventListener (instrument.js) or as a handler property or attribute (onclick=...)
  const POINTER_PROPS = ['onclick', 'onmousedown', 'onmouseup', 'onmousemove', 'onpointerdown', 'onpointermove', 'ontouchstart', 'onwheel', 'ondblclick'];
  const heard = (el) => {
    if (G.docPointer || POINTER_PROPS.some((p) => window[p] || document[p])) return true;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) if (G.pointerEls.has(e) || POINTER_PROPS.some((p) => e[p])) return true;
    return false;
  };
  const delegated = (el) => {
    if (G.docClick) return true;
    for (let e = el.parentElement; e; e = e.parentElement) if (G.clickTargets.includes(e)) return true;
    return false;
  };
  const kindOf = (el) => {
    const tag = el.tagName.toLowerCase(), type = (el.getAttribute('type') || '').toLowerCase();
    if (el.getAttribute('draggable') === 'true') return ['excluded', 'drag-and-drop'];
    if (tag === 'input') {
      if (type === 'hidden') return [null, null];
      if (type === 'range') return ['range', null];
      if (type === 'checkbox' || type === 'radio') return ['click', null];
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return ['click', null];
      if (TYPED.has(type) || el.hasAttribute('pattern')) return ['excluded', 'typed-format field (' + (type || 'pattern') + ')'];
      if (TEXT.has(type)) return ['text', null];
      return ['excluded', 'input type ' + type];
    }
    if (tag === 'textarea') return ['text', null];
    if (tag === 'select') return ['select', null];
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return ['text', null];
    if (tag === 'canvas') return heard(el) ? ['canvas', null] : ['excluded', 'nothing on the page listens to the pointer over it'];
    if (tag === 'button' || tag === 'summary' || (tag === 'a' && el.hasAttribute('href')) || el.getAttribute('role') === 'button' || el.hasAttribute('onclick')) return ['click', null];
    if (G.clickTargets.includes(el) && el !== document.body && el !== document.documentElement) return ['click', null];
    // delegated clicks (a listener on document or an ancestor): the outermost element that
    // shows a pointer cursor is what a user would click
    if (el !== document.body && el !== document.documentElement && delegated(el) && getComputedStyle(el).cursor === 'pointer'
        && !(el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer')) return ['click', null];
    return [null, null];
  };
  // form fields by their stable names, everything else by what a user reads on it
  const labelOf = (el) => {
    const field = /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && !/^(button|submit|reset)$/.test(el.type);
    const text = field
      ? el.getAttribute('aria-label') || el.id || el.name || (el.labels && el.labels[0] && el.labels[0].innerText) || ''
      : el.getAttribute('aria-label') || el.innerText || el.value || el.id || '';
    return String(text).trim().replace(/\s+/g, ' ').slice(0, 40);
  };
  // a press heard on the element or an ancestor: a drag is worth a try (orbit controls and rope
  // toys add their move listener only once pressed, so moves cannot be required up front)
  const draggable = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) if (G.downEls.has(e)) return true;
    return false;
  };
  // the key values handlers compare against: e.key === 'r', e.code == "KeyR", keyCode === 82,
  // case 'r': inside switch (e.key); read from key-handler sources and inline scripts
  const KEY_RX = [
    /\.(?:key|code)(?:\.toLowerCase\(\)|\.toUpperCase\(\))?\s*[!=]==?\s*(['"`])((?:\\.|(?!\1).){1,12})\1/g,
    /(['"`])((?:\\.|(?!\1).){1,12})\1\s*[!=]==?\s*\w+\.(?:key|code)\b/g,
    /\.(?:keyCode|which)\s*[!=]==?\s*()(\d{1,3})\b/g,
  ];
  const keyValues = () => {
    const srcs = [...G.keySources];
    for (const sc of document.querySelectorAll('script:not([src])')) srcs.push(sc.textContent.slice(0, 200000));
    const out = new Set();
    for (const src of srcs) {
      if (!/key|which/i.test(src)) continue;
      for (const rx of KEY_RX) for (const m of src.matchAll(rx)) out.add(m[1] ? m[2] : '#' + m[2]);
      // switch (e.key) { case 'r': ... } and switch (e.keyCode) { case 82: ... }
      for (const sw of src.matchAll(/switch\s*\(\s*[\w.$]*\.(key|code|keyCode|which)\b[^)]*\)\s*\{/g)) {
        const body = src.slice(sw.index, sw.index + 3000), numeric = sw[1] === 'keyCode' || sw[1] === 'which';
        for (const c of body.matchAll(numeric ? /case\s+(\d{1,3})\s*:/g : /case\s+(['"`])((?:\\.|(?!\1).){1,12})\1\s*:/g)) out.add(numeric ? '#' + c[1] : c[2]);
      }
      if (out.size > 60) break;
    }
    return [...out].slice(0, 60);
  };
  // WCAG contrast of an element's text against what is painted behind it: its own and its
  // ancestors' background colours, semi-transparent ones composited, down to the first opaque
  // one. Where they leave the backdrop open, whatever lies under the text's centre and is not an
  // ancestor (text laid over a canvas, an image or a coloured panel) decides it. 21 (no verdict)
  // where a backdrop is a picture (a background image or gradient, a canvas, an image, a video):
  // its colour is unknown here, and white text on a dark canvas is not low contrast.
  const rgb = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c); if (!m) return null; const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return v.length >= 3 ? [v[0], v[1], v[2], v.length > 3 ? v[3] : 1] : null; };
  const lum = ([r, g, b]) => { const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, below) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1); };
  const PICTURE = /^(CANVAS|IMG|VIDEO|SVG|PICTURE|IFRAME|OBJECT|EMBED)$/i;
  // the colour layers of `els` (front to back) down to the first opaque one; null when a
  // picture is among them; `open`: no opaque layer. `own`: els[0] is the text's element, with
  // this style (a picture itself only through its background)
  const layers = (els, own) => {
    const out = [];
    for (const [k, e] of els.entries()) {
      const mine = k === 0 && own;
      const s = mine ? own : getComputedStyle(e);
      if (s.backgroundImage !== 'none' || (!mine && PICTURE.test(e.tagName))) return null;
      const c = rgb(s.backgroundColor);
      if (c && c[3] > 0.01) { out.push(c); if (c[3] >= 0.99) return { out, open: false }; }
    }
    return { out, open: true };
  };
  const contrast = (el, st) => {
    let fg = rgb(st.color); if (!fg || fg[3] < 0.1) return 21;
    const chain = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) chain.push(e);
    const found = layers(chain, st);
    if (!found) return 21;
    let stack = found.out;
    if (found.open) {  // what lies under the text that is not one of its ancestors
      const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) {
        const all = document.elementsFromPoint(x, y), at = all.indexOf(el);
        const under = all.slice(at + 1).filter((e) => !chain.includes(e) && !el.contains(e));
        const below = layers(under, null);
        if (!below) return 21;
        stack = stack.concat(below.out);
      }
    }
    let bg = [255, 255, 255, 1];
    for (let i = stack.length - 1; i >= 0; i--) bg = over(stack[i], bg);
    fg = over(fg, bg);
    const a = lum(fg), b = lum(bg);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
  // how an element looks, beyond its text: where it is (document coordinates, so scrolling is
  // no change) and the painted properties that CSS animations, transitions and script move.
  // Borders, shadows and outlines are left out: focus rings are drawn with them.
  // Two parts: `paint`, the properties script and CSS move things with (which a text change
  // never changes: transform, offsets, SVG geometry, colours), and `box`, the element's box,
  // which also follows from text reflowing (a counter that grows a digit).
  const PAINT = ['transform', 'left', 'top', 'opacity', 'color', 'backgroundColor', 'backgroundPosition', 'fill', 'stroke',
                 'strokeDashoffset', 'filter', 'clipPath', 'cx', 'cy', 'r', 'x', 'y', 'd'];
  const round2 = (v) => String(v).replace(/-?\d*\.\d+/g, (m) => String(Math.round(+m * 100) / 100));
  // an identity transform draws what no transform draws: a value re-set to itself every frame
  // (rotate(0deg)) is not motion
  const IDENTITY = /^matrix\(1, 0, 0, 1, 0, 0\)$|^matrix3d\(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\)$/;
  const paint = (cs) => { let out = ''; for (const k of PAINT) { const v = cs[k]; out += ';' + (k === 'transform' && IDENTITY.test(v) ? 'none' : round2(v)); } return out; };
  // pseudo-elements are not elements: those with animations or transitions running are sampled
  // apart (a glow on ::after), with the shadows a pseudo-element's glow is drawn with
  const pseudoLooks = () => {
    const out = new Map();
    if (!document.getAnimations) return out;
    for (const an of document.getAnimations()) {
      const ef = an.effect;
      if (!ef || !ef.pseudoElement || !ef.target || !ef.target.isConnected) continue;
      const cs = getComputedStyle(ef.target, ef.pseudoElement);
      out.set(ef.target, (out.get(ef.target) || '') + ef.pseudoElement + paint(cs) + ';' + cs.boxShadow + ';' + cs.textShadow + ';' + cs.width + ';' + cs.height);
    }
    return out;
  };
  const box = (n, sx, sy) => {
    const r = n.getBoundingClientRect();
    return Math.round(r.left + sx) + ',' + Math.round(r.top + sy) + ',' + Math.round(r.width) + ',' + Math.round(r.height);
  };
  // a canvas's pixels against its last sample, at low resolution, leaving out the boxes where
  // numbers were written since then: true when something else changed
  G.lastPixels = new WeakMap();
  G.lastLooks = new WeakMap();
  const scratch = document.createElement('canvas');
  // how much a canvas changed since the last look, as the mean change of its sampled pixels
  // (RGBA sum, 0-1020); moved when any pixel changed by more than 6
  const pixelChange = (c) => {
    const W = 96, H = Math.max(1, Math.round((W * c.height) / c.width));
    scratch.width = W; scratch.height = H;
    const x = scratch.getContext('2d', { willReadFrequently: true });
    let data;
    const none = { moved: false, amount: 0 };
    try { x.clearRect(0, 0, W, H); x.drawImage(c, 0, 0, W, H); data = x.getImageData(0, 0, W, H).data; } catch (e) { return none; }
    const prev = G.lastPixels.get(c), boxes = G.numberBoxes.get(c) || [];
    G.lastPixels.set(c, { data, boxes });
    G.numberBoxes.set(c, []);
    if (!prev || prev.data.length !== data.length) return none;
    const fx = W / c.width, fy = H / c.height, skip = new Uint8Array(W * H);
    for (const [bx, by, bw, bh] of [...prev.boxes, ...boxes]) {
      for (let j = Math.max(0, Math.floor(by * fy) - 1); j < Math.min(H, Math.ceil((by + bh) * fy) + 1); j++)
        for (let i = Math.max(0, Math.floor(bx * fx) - 1); i < Math.min(W, Math.ceil((bx + bw) * fx) + 1); i++) skip[j * W + i] = 1;
    }
    let moved = false, sum = 0, n = 0;
    for (let k = 0; k < W * H; k++) {
      if (skip[k]) continue;
      const o = 4 * k;
      const d = Math.abs(data[o] - prev.data[o]) + Math.abs(data[o + 1] - prev.data[o + 1]) + Math.abs(data[o + 2] - prev.data[o + 2]) + Math.abs(data[o + 3] - prev.data[o + 3]);
      if (d > 6) moved = true;
      sum += d; n++;
    }
    return { moved, amount: n ? sum / n : 0 };
  };
  const shadowText = (el) => (el.shadowRoot ? el.shadowRoot.textContent.trim().slice(0, 2000) : '');
  // disabled as a person sees it: the attribute, aria-disabled, a disabled fieldset, or the
  // not-allowed cursor a page puts on the options of a question already answered
  const disabledNow = (el) => el.disabled || el.getAttribute('aria-disabled') === 'true' || !!el.closest('fieldset:disabled') ||
    getComputedStyle(el).cursor === 'not-allowed';
  // the container a control shares with its siblings (a wrapper around one control alone is
  // skipped): a quiz question's answers, a palette's swatches, a keypad's keys
  const groupIds = new WeakMap();
  let nGroups = 0;
  const groupOf = (el) => {
    let p = el.parentElement;
    while (p && p.children.length === 1 && p.parentElement && p.parentElement !== document.body) p = p.parentElement;
    if (!p) return '';
    if (!groupIds.has(p)) groupIds.set(p, String(++nGroups));
    return groupIds.get(p);
  };
  // groups of alike siblings (one parent, one tag and class list): add() counts an element into
  // its group and returns the group's size so far; sizes() lists every group's size
  const alikeGroups = () => {
    const groups = new Map();
    return {
      add(el) {
        const sig = el.tagName.toUpperCase() + '.' + (typeof el.className === 'string' ? el.className.trim().split(/\s+/).sort().join('.') : '');
        let g = groups.get(el.parentElement); if (!g) groups.set(el.parentElement, (g = new Map()));
        const n = (g.get(sig) || 0) + 1; g.set(sig, n); return n;
      },
      sizes() { return [...groups.values()].flatMap((g) => [...g.values()]); },
    };
  };
  const P = (window.__cogevolProbe = {
    controls: [],
    // one control's record: its kind, whether a user could operate it now, and what it reads
    describe(el, index, kind, why) {
      let status = 'operable', reason = '';
      if (kind === 'excluded') { status = 'excluded'; reason = why; }
      else if (disabledNow(el)) { status = 'not_operable'; reason = 'disabled'; }
      else if (!visible(el)) { status = 'not_operable'; reason = 'not visible'; }
      return { index, kind, status, reason, tag: el.tagName.toLowerCase(), label: labelOf(el), type: (el.getAttribute('type') || '').toLowerCase(),
               drag: kind !== 'text' && kind !== 'select' && draggable(el), hears: G.clickTargets.includes(el) || delegated(el) || draggable(el),
               group: groupOf(el) };
    },
    discover() {
      const out = [];
      this.controls = [];
      for (const el of allElements(document)) {
        const [kind, why] = kindOf(el);
        if (!kind) continue;
        this.controls.push(el);
        out.push(this.describe(el, this.controls.length - 1, kind, why));
      }
      const keys = [...G.keyTargets];
      // keys heard only by an element: the keyboard pseudo-control focuses that element first
      let keyIndex = -1;
      if (G.keyEl && !G.keyTargets.has('window') && !G.keyTargets.has('document')) {
        keyIndex = this.controls.indexOf(G.keyEl);
        if (keyIndex < 0) { this.controls.push(G.keyEl); keyIndex = this.controls.length - 1; }
      }
      return { controls: out, keyTargets: keys, keyIndex, docClick: !!G.docClick, keyValues: keys.length ? keyValues() : [] };
    },
    // after an input: the controls that appeared since the last discovery (appended, so earlier
    // indices stay valid on this page and on its twin, which discovers at the same moment), and
    // the current status of earlier ones (`indices`): revealed, enabled, hidden or detached
    discoverMore(indices) {
      const known = new Set(this.controls), out = [];
      for (const el of allElements(document)) {
        if (known.has(el)) continue;
        const [kind, why] = kindOf(el);
        if (!kind) continue;
        this.controls.push(el);
        out.push(this.describe(el, this.controls.length - 1, kind, why));
      }
      const now = indices.map((i) => {
        const el = this.controls[i];
        if (!el || !el.isConnected) return { index: i, status: 'not_operable', reason: 'detached' };
        const [kind, why] = kindOf(el);
        return kind ? this.describe(el, i, kind, why) : { index: i, status: 'not_operable', reason: 'no longer a control' };
      });
      const keys = [...G.keyTargets];
      return { controls: out, now, keyTargets: keys, keyValues: keys.length ? keyValues() : [] };
    },
    // bring a control into view and hit-test its centre; when a user could not reach it, `why`
    // (detached | disabled | off_screen | covered) is the id and `reason` the text for people
    aim(i, fx = 0.5, fy = 0.5) {
      const el = this.controls[i]; if (!el || !el.isConnected) return { ok: false, why: 'detached', reason: 'detached' };
      if (disabledNow(el)) return { ok: false, why: 'disabled', reason: 'disabled' };
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return { ok: false, why: 'off_screen', reason: 'off-screen' };
      let hit = document.elementFromPoint(x, y);
      while (hit && hit.shadowRoot) { const inner = hit.shadowRoot.elementFromPoint(x, y); if (!inner || inner === hit) break; hit = inner; }
      const reach = hit && (hit === el || el.contains(hit) || (el.shadowRoot && el.shadowRoot.contains(hit)) || (el.tagName === 'LABEL' && hit === el.control) || (hit.tagName === 'LABEL' && hit.control === el));
      if (!reach) return { ok: false, why: 'covered', reason: 'covered by ' + (hit ? hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : '') : 'nothing') };
      return { ok: true, x, y, box: [r.left, r.top, r.width, r.height] };
    },
    // whether control j sits beside field i (same form, or within three levels of it): the
    // button that uses what was typed into the field
    near(i, j) {
      const f = this.controls[i], b = this.controls[j];
      if (!f || !b) return false;
      if (f.form && f.form === b.form) return true;
      let e = f;
      for (let k = 0; k < 3 && e.parentElement; k++) { e = e.parentElement; if (e.contains(b)) return true; }
      return false;
    },
    // flows (cogevol/probe/flows.py): the visible text, and the first operable control of a
    // kind whose label holds one of `words` (any control of the kind when `words` is empty);
    // `search` prefers a search field; a field whose label, placeholder or type holds a word of
    // `avoid` is left out (a task typed into a to-do list's search box is no task); with
    // `beside`, the one closest to the field last typed into comes first (the editor's Save for
    // its title, not the header's "+ New Note"). -1: none. The field is kept as an element
    // (flowTyped): a discovery renumbers the controls when a step adds some.
    flowText() { const b = document.body || document.documentElement; return (document.title + '\n' + (b ? b.innerText : '')).slice(0, 60000); },
    flowFind(kind, words, search = false, avoid = [], beside = false) {
      const hits = [];
      const textOf = (el) => (labelOf(el) + ' ' + (el.getAttribute('placeholder') || '') + ' ' + (el.getAttribute('title') || '') + ' ' + (el.type || '')).toLowerCase();
      const named = (el) => words.some((w) => textOf(el).includes(w));
      for (let i = 0; i < this.controls.length; i++) {
        const el = this.controls[i];
        if (!el || !el.isConnected) continue;
        const [k] = kindOf(el);
        if (k !== kind || el.disabled || !visible(el)) continue;
        const text = textOf(el), hit = words.some((w) => text.includes(w));
        if (avoid.some((w) => text.includes(w))) continue;
        if (!words.length || hit) hits.push([i, hit || (search && el.type === 'search')]);
        else if (search) hits.push([i, false]);
      }
      // a card that holds the word only through a button inside it: the button, even one shown
      // only while the pointer is over the card (opacity 0 until :hover; the click's pointer
      // move shows it, and a transparent button takes clicks)
      if (words.length) {
        for (const h of hits) {
          const el = this.controls[h[0]];
          const j = this.controls.findIndex((c) => c && c !== el && el.contains(c) && kindOf(c)[0] === kind && !c.disabled && visible(c, true) && named(c));
          if (j >= 0) h[0] = j;
        }
      }
      if (search) { const best = hits.find((h) => h[1]); return best ? best[0] : hits.length ? hits[0][0] : -1; }
      const f = beside ? this.typed : null;
      if (f && f.isConnected && hits.length > 1) {
        // the closest: the one whose common container with the field is smallest
        const up = [];
        for (let e = f.parentElement; e; e = e.parentElement) up.push(e);
        const rank = (i) => { const k = up.findIndex((e) => e.contains(this.controls[i])); return k < 0 ? up.length : k; };
        return hits.reduce((best, h) => (rank(h[0]) < rank(best[0]) ? h : best))[0];
      }
      return hits.length ? hits[0][0] : -1;
    },
    // the largest group of alike visible siblings that show text and are not form controls:
    // the items a search could narrow (a notes app with no note yet lists none)
    listed() {
      const alike = alikeGroups();
      let best = 0;
      for (const el of allElements(document)) {
        if (!el.parentElement || /^(BUTTON|INPUT|SELECT|TEXTAREA|OPTION|LABEL)$/.test(el.tagName) || el.getAttribute('role') === 'button') continue;
        if (visible(el) && (el.innerText || '').trim()) best = Math.max(best, alike.add(el));
      }
      return best;
    },
    flowTyped(i) { this.typed = this.controls[i] || null; },
    flowFocus() { if (this.typed) this.typed.focus({ preventScroll: true }); },
    // a keypad key: the visible, enabled click control labelled exactly `label` ("1", "+")
    flowKey(label) {
      for (let i = 0; i < this.controls.length; i++) {
        const el = this.controls[i];
        if (el && el.isConnected && kindOf(el)[0] === 'click' && !el.disabled && visible(el) && labelOf(el).trim() === label) return i;
      }
      return -1;
    },
    // indices of the operable, empty text fields (a form to fill)
    flowEmpty() {
      const out = [];
      this.controls.forEach((el, i) => { if (el && el.isConnected && kindOf(el)[0] === 'text' && !el.disabled && visible(el) && !el.value) out.push(i); });
      return out;
    },
    focus(i) { const el = this.controls[i]; if (el) el.focus({ preventScroll: true }); },
    // focus as an index into controls (-1: nothing focused), so the twin can mirror it
    focused() { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return this.controls.indexOf(a); },
    setFocus(i) { if (i >= 0) this.focus(i); else if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur(); },
    nextOption(i) { const el = this.controls[i]; return el && el.options && el.options.length > 1 ? (el.selectedIndex + 1) % el.options.length : -1; },
    // visible state: text and structure of rendered elements, form state, canvas pixels;
    // optionally leaving out one control's own value (its echo of the input). Attributes are
    // left to the pixel check: a class or data-* change that renders nothing is not visible.
    snapshot(skip = -1) {
      const skipEl = skip >= 0 ? this.controls[skip] : null;
      const parts = [], boxes = [], paints = [];
      const sx = window.scrollX, sy = window.scrollY;
      const walk = (node) => {
        for (const n of node.childNodes) {
          if (n.nodeType === 3) { const t = n.textContent.trim(); if (t) parts.push('#' + t); continue; }
          if (n.nodeType !== 1) continue;
          const tag = n.tagName;
          if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT' || tag === 'TEMPLATE') continue;
          if (tag !== 'OPTION' && !n.shadowRoot && !shown(n) && getComputedStyle(n).display !== 'contents') continue;
          let s = '<' + tag;
          if (n !== skipEl && ('value' in n) && (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'PROGRESS' || tag === 'METER' || tag === 'OUTPUT')) s += ' :value=' + n.value;
          if (n !== skipEl && (n.type === 'checkbox' || n.type === 'radio')) s += ' :checked=' + n.checked;
          if (tag === 'DETAILS' || tag === 'DIALOG') s += ' :open=' + n.open;
          parts.push(s + '>');
          if (n === skipEl) inSkip++;
          if (!inSkip) { boxes.push(box(n, sx, sy)); paints.push(paint(getComputedStyle(n))); }
          if (n.shadowRoot) { parts.push('[shadow]'); walk(n.shadowRoot); }
          if (n !== skipEl || !n.isContentEditable) walk(n);
          if (n === skipEl) inSkip--;
        }
      };
      let inSkip = 0;  // the control's own look (hover, focus, pressed) is its echo, not a response
      walk(document.body || document.documentElement);
      const canvases = [];
      for (const c of allElements(document)) {
        if (c.tagName !== 'CANVAS' || c.width * c.height === 0 || !shown(c)) continue;
        try { canvases.push(hash(c.toDataURL())); } catch (e) { canvases.push('tainted'); }
      }
      const text = parts.join('');
      return { dom: hash(text), digits: hash(text.replace(/\d+/g, '0')), paint: hash(paints.join('|')), box: hash(boxes.join('|')),
               canvas: canvases.join(','), effects: G.effects ? G.effects + ' ' + G.effect : '' };
    },
    // one sample for the motion check: the snapshot, whether a canvas changed outside the
    // numbers written on it since the last sample, and whether the page has a scene (a canvas,
    // picture or drawing that fills a good part of the screen): a still scene whose only
    // change is a counter is not an animation. `reset`: start over (the first sample).
    // Elements are compared one by one against the last sample: one whose text changed is
    // left out (it and its ancestors reflow with it, and percentage transforms or right-anchored
    // offsets follow its size), so a counter never passes for moving elements.
    motion(reset = false) {
      const snap = this.snapshot();
      if (reset) { G.lastPixels = new WeakMap(); G.lastLooks = new WeakMap(); }
      let canvasMoved = false, canvasChange = 0, scene = false, paintMoved = false, boxMoved = false;
      const screen = innerWidth * innerHeight, sx = window.scrollX, sy = window.scrollY;
      const pseudo = pseudoLooks();
      for (const el of allElements(document)) {
        const tag = el.tagName.toUpperCase();
        if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'HEAD' || tag === 'TITLE' || tag === 'META' || tag === 'LINK') continue;
        const shownNow = shown(el);
        const now = shownNow ? [paint(getComputedStyle(el)) + (pseudo.get(el) || ''), box(el, sx, sy), el.textContent] : null, last = G.lastLooks.get(el);
        G.lastLooks.set(el, now);
        if (!reset && last !== undefined && String(last) !== String(now) && (!last || !now || last[2] === now[2])) {
          if (!last || !now || last[0] !== now[0]) paintMoved = true;  // appeared, vanished, or moved by style
          else boxMoved = true;
        }
        if (!/^(CANVAS|SVG|VIDEO|IMG)$/.test(tag)) continue;
        const r = el.getBoundingClientRect();
        const area = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
        if (area <= 0 || !visible(el)) continue;
        if (area >= 0.15 * screen) scene = true;
        if (tag === 'CANVAS' && el.width * el.height > 0) {
          const ch = pixelChange(el);
          canvasMoved = canvasMoved || ch.moved;
          canvasChange = Math.max(canvasChange, ch.amount);
        }
      }
      return Object.assign(snap, { canvasMoved, canvasChange, scene, paintMoved, boxMoved });
    },
    // client coordinates of shapes drawn on canvas i, most recent first, inside its visible box
    shapeTargets(i, n) {
      const c = this.controls[i], list = c && G.shapes.get(c); if (!list || !c.width || !c.height) return [];
      const r = c.getBoundingClientRect(), out = [], seen = new Set();
      for (const [x, y] of [...list.values()].reverse()) {
        const cx = r.left + (x * r.width) / c.width, cy = r.top + (y * r.height) / c.height;
        const key = Math.round(cx / 24) + ':' + Math.round(cy / 24);
        if (seen.has(key) || cx < r.left + 2 || cy < r.top + 2 || cx > r.right - 2 || cy > r.bottom - 2 || cx >= innerWidth || cy >= innerHeight || cx < 0 || cy < 0) continue;
        seen.add(key); out.push([cx, cy]);
        if (out.length >= n) break;
      }
      return out;
    },
    // the points (viewport [x, y]) where control i itself is under the pointer: a pointer
    // moved there crosses nothing else (no overlay's hover style)
    ownPoints(i, pts) {
      const el = this.controls[i];
      return el ? pts.filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === el) : [];
    },
    // a board: a large plain element whose own listener (or one above it) works out which piece
    // lies under the pointer (a clicker's targets, a grid of tiles): its centre may fall between
    // the pieces, so the centres of up to n of its visible pieces, topmost at that point, that are
    // no control of their own and at most a quarter of the board. None for a native control or an
    // element under BOARD_SHARE of the viewport (a card is clicked where a person clicks it).
    pieceTargets(i, n) {
      const el = this.controls[i];
      if (!el || NATIVE.test(el.tagName) || el.getAttribute('role') === 'button') return [];
      const r = el.getBoundingClientRect(), out = [], seen = new Set();
      if (r.width * r.height < BOARD_SHARE * innerWidth * innerHeight) return [];
      seen.add(Math.round((r.left + r.width / 2) / 24) + ':' + Math.round((r.top + r.height / 2) / 24));
      const others = this.controls.filter((c) => c !== el && el.contains(c));
      for (const d of [...el.querySelectorAll('*')].slice(0, 600)) {
        const b = d.getBoundingClientRect();
        if (b.width < 4 || b.height < 4 || b.width * b.height > (r.width * r.height) / 4) continue;
        const cx = b.left + b.width / 2, cy = b.top + b.height / 2;
        const key = Math.round(cx / 24) + ':' + Math.round(cy / 24);
        if (seen.has(key) || cx < 0 || cy < 0 || cx >= innerWidth || cy >= innerHeight) continue;
        if (others.some((c) => c.contains(d))) continue;
        const hit = document.elementFromPoint(cx, cy);
        if (!hit || !(hit === d || d.contains(hit)) || !shown(d)) continue;
        seen.add(key); out.push([cx, cy]);
        if (out.length >= n) break;
      }
      return out;
    },
    // what the page shows, for the request's checklist (cogevol/checklist/run.py): its
    // visible text (with the title, labels, alt texts and what it wrote on canvases), the sizes
    // of groups of alike visible siblings ("12 cards"), and whether it is a drawn scene with
    // little text (then a request's words may only be named in its code)
    facts() {
      const body = document.body || document.documentElement;
      const parts = [document.title, body ? body.innerText : ''];
      const alike = alikeGroups();
      let drawn = 0;
      const screen = innerWidth * innerHeight;
      for (const el of document.querySelectorAll('[aria-label], [alt], [title], [placeholder], input[type=button], input[type=submit], option, button, [role=button], label')) {
        for (const a of ['aria-label', 'alt', 'title', 'placeholder']) { const v = el.getAttribute(a); if (v) parts.push(v); }
        if (el.tagName === 'INPUT' || el.tagName === 'OPTION') parts.push(el.value || el.textContent);
        // a control's words on their own line: innerText runs inline siblings together ("taskDoneDelete")
        else if (!el.hasAttribute('aria-label') && shown(el)) parts.push(el.innerText);
      }
      for (const el of allElements(document)) {
        const tag = el.tagName.toUpperCase();
        if (el.shadowRoot) parts.push(shadowText(el));
        if (!el.parentElement || !shown(el)) continue;
        if (/^(CANVAS|SVG|VIDEO|IMG)$/.test(tag)) { const r = el.getBoundingClientRect(); drawn += r.width * r.height; }
        alike.add(el);
      }
      parts.push(...G.canvasTexts);
      const sizes = new Set();
      for (const n of alike.sizes()) if (n >= 2 && sizes.size < 60) sizes.add(n);
      const text = parts.filter(Boolean).join('\n').slice(0, 30000);
      // drawn: what the page draws (canvas, SVG, video, pictures) covers a good part of the
      // screen, whatever text is beside it (a canvas game with notes under it)
      return { text, groups: [...sizes].sort((a, b) => a - b), drawn: drawn >= 0.3 * screen, scene: drawn >= 0.3 * screen && (body ? body.innerText.trim().length : 0) < 200 };
    },
    // what the first screen holds, for the reward's floor (cogevol/rewards/answer_format.py and
    // substance.py): visible text outside pre/code/textarea (`prose`, its first 4000 characters),
    // its code-like lines outside titles and controls, markdown fences shown as text, the text of
    // titles and controls (`ownChars`), painted leaf shapes (a bar, a board's cell, an SVG shape, a loaded picture) and
    // the canvases' boxes, whose ink the probe reads off the screenshot
    substance() {
      const FRAMED = /^(PRE|CODE|TEXTAREA|KBD|SAMP|XMP|LISTING)$/, HIDDEN = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HEAD|TITLE)$/;
      const OWN = /^(H[1-6]|BUTTON|LABEL|OPTION|SELECT|SUMMARY|LEGEND|TH|CAPTION|NAV)$/;
      const codeLine = (s) => {
        const t = s.trim(); if (t.length < 4) return false;
        const marks = (t.match(/[;{}]|=>|===|!==|\+\+|&&|\|\||\w\(|\b(?:function|const|let|var|return|def|class|import)\b|<\/?[a-z]+[\s>]/g) || []).length;
        return marks / t.length >= 0.04 || /[;{}]$/.test(t);
      };
      // code shown on purpose: a pre/code/textarea, or a box styled as code (monospace, or white
      // space kept as written), as a tutorial or a playground shows it
      const styledAsCode = new Map();
      const asCode = (e) => {
        if (!styledAsCode.has(e)) { const st = getComputedStyle(e); styledAsCode.set(e, /^pre/.test(st.whiteSpace) || /mono|courier|consolas|menlo/i.test(st.fontFamily)); }
        return styledAsCode.get(e);
      };
      // text a scroll reveal keeps transparent until it is reached counts: a person scrolls to it
      const laidOut = (e) => (e.checkVisibility ? e.checkVisibility({ checkVisibilityCSS: true }) : visible(e, true));
      let textChars = 0, codeChars = 0, fences = 0, ownChars = 0, prose = '';
      const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
      // bounded, so a hostile page of a million nodes costs no more than a big real one
      let budget = 4000;
      for (let n = walker.nextNode(); n && budget > 0; n = walker.nextNode()) {
        const s = n.data; if (!s.trim()) continue;
        budget--;
        let framed = false, own = false, hidden = false, depth = 0;
        for (let e = n.parentElement; e && depth++ < 64; e = e.parentElement) {
          if (HIDDEN.test(e.tagName)) { hidden = true; break; }
          if (FRAMED.test(e.tagName)) framed = true;
          if (OWN.test(e.tagName)) own = true;
        }
        if (hidden || framed || !n.parentElement || !laidOut(n.parentElement) || asCode(n.parentElement)) continue;
        const len = s.trim().length; textChars += len;
        fences += (s.match(/```|~~~/g) || []).length;
        if (prose.length < 4000) prose += s.trim().slice(0, 4000 - prose.length) + '\n';
        if (own) { ownChars += len; continue; }
        for (const line of s.split('\n')) if (codeLine(line)) codeChars += line.trim().length;
      }
      let shapes = 0; const canvases = [], screen = innerWidth * innerHeight;
      for (const el of allElements(document).slice(0, 4000)) {
        const tag = el.tagName.toUpperCase();
        if (HIDDEN.test(tag) || tag === 'BODY' || tag === 'HTML' || !shown(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width * r.height < 16 || r.bottom < 0 || r.top > innerHeight) continue;
        if (tag === 'CANVAS') { if (canvases.length < 8) canvases.push([r.left, r.top, r.width, r.height]); continue; }
        if (tag === 'IMG' || tag === 'VIDEO') { if (el.naturalWidth || el.videoWidth) shapes += r.width * r.height >= 0.05 * screen ? 3 : 1; continue; }
        if (el instanceof SVGGraphicsElement && !(el instanceof SVGSVGElement) && !/^(G|DEFS|TITLE|DESC)$/.test(tag)) { shapes++; continue; }
        if ([...el.children].some((c) => shown(c)) || el.textContent.trim()) continue;
        const st = getComputedStyle(el);
        const painted = st.backgroundImage !== 'none' || !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(st.backgroundColor) || (parseFloat(st.borderTopWidth) > 0 && st.borderTopStyle !== 'none');
        if (painted) shapes++;
      }
      return { textChars, codeChars, fences, ownChars, prose, shapes, canvases, canvasTexts: G.canvasTexts.size };
    },
    errorCount() { return G.errors.length; },
    box(i) { const el = this.controls[i]; if (!el) return null; const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; },
    idle() { return G.pending.size === 0 && !G.untracked && !G.animating(); },
    sync() { G.sync(); return true; },
    drain() { const d = G.draws, m = G.mutations; G.draws = []; G.mutations = []; return { draws: d, mutations: m, scheduled: G.scheduled }; },
    visibleContent() {
      let area = 0, text = 0;
      for (const el of allElements(document)) {
        const tag = el.tagName;
        // any painted size is content: a rain of 1-px streaks is what a person sees
        const r = el.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0 || !shown(el)) continue;
        if (tag === 'CANVAS' || tag === 'SVG' || tag === 'IMG' || tag === 'VIDEO' || tag === 'svg') area += r.width * r.height;
        else if (tag !== 'BODY' && tag !== 'HTML') {  // painted boxes (a board of empty cells is content)
          const st = getComputedStyle(el);
          if (st.backgroundImage !== 'none' || !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(st.backgroundColor)) area += r.width * r.height;
        }
        for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) text += n.textContent.trim().length;
        if (tag === 'BUTTON' || tag === 'INPUT' || tag === 'SELECT') text += 1;
      }
      return { area, text, errors: G.errors.slice(0, 5) };
    },
    // viewport defects at the current viewport size
    viewport() {
      const W = document.documentElement.clientWidth;
      const overflow = Math.max(0, document.documentElement.scrollWidth - W);
      const els = allElements(document).filter((e) => e.tagName !== 'SCRIPT' && e.tagName !== 'STYLE' && visible(e));
      let clipped = 0, small = 0, textEls = 0, overlaps = 0, lowContrast = 0;
      const boxes = [];
      for (const e of els) {
        const r = e.getBoundingClientRect();
        const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (own) {
          textEls++;
          const st = getComputedStyle(e);
          if (parseFloat(st.fontSize) < 11) small++;
          if (contrast(e, st) < 3) lowContrast++;
          if (r.right > W + 1 || r.left < -1) clipped++;
          if (boxes.length < 300) boxes.push(r);
        }
      }
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        const ix = Math.min(a.right, b.right) - Math.max(a.left, b.left), iy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (ix > 4 && iy > 4 && ix * iy > 0.3 * Math.min(a.width * a.height, b.width * b.height)) {
          // nested boxes (a label inside a button) are layout, not overlap
          const contains = (p, q) => p.left <= q.left && p.top <= q.top && p.right >= q.right && p.bottom >= q.bottom;
          if (!contains(a, b) && !contains(b, a)) overlaps++;
        }
      }
      return { width: W, overflow, clipped, small, textEls, overlaps, lowContrast };
    },
  });
  // every call first brings CSS, Web Animations and SMIL motion to the virtual clock's time
  for (const k of Object.keys(P)) {
    const f = P[k];
    if (typeof f === 'function') P[k] = function (...a) { G.sync(); return f.apply(this, a); };
  }
})();
