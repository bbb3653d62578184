// Injected before any page script (Playwright add_init_script). Makes the page deterministic
// (seeded Math.random / crypto.getRandomValues), harmless (no dialogs, no popups, no
// navigation by script), and observable (canvas 2D / WebGL calls, DOM mutations including
// shadow roots, listener registrations). Everything lives under window.__cogevol.
(() => {
  const SEED = __SEED__;
  const G = (window.__cogevol = { draws: [], mutations: [], keyTargets: new Set(), clickTargets: [], errors: [], listeners: 0 });
  // --- determinism -------------------------------------------------------------------------
  let s = SEED >>> 0;
  const rand = () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  Math.random = rand;
  if (window.crypto && crypto.getRandomValues) {
    crypto.getRandomValues = (arr) => { for (let i = 0; i < arr.length; i++) arr[i] = Math.floor(rand() * 4294967296); return arr; };
  }
  // A camera or a microphone answers at once, with streams drawn here: the browser's fake devices
  // start in real time, which the virtual clock cannot wait for (and the twin would start them at
  // another moment). The stream is a grey frame and a quiet tone, as from a person's devices.
  if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    navigator.mediaDevices.getUserMedia = async (want) => {
      const tracks = [];
      if (want && want.audio) {
        const ac = new AudioContext(), osc = ac.createOscillator(), gain = ac.createGain(), dst = ac.createMediaStreamDestination();
        gain.gain.value = 0.01; osc.connect(gain).connect(dst); osc.start();
        tracks.push(...dst.stream.getAudioTracks());
      }
      if (want && want.video) {
        const cv = document.createElement('canvas'); cv.width = 640; cv.height = 480;
        const x = cv.getContext('2d'); x.fillStyle = '#777'; x.fillRect(0, 0, 640, 480);
        tracks.push(...cv.captureStream(30).getVideoTracks());
      }
      if (!tracks.length) throw new TypeError('getUserMedia: at least one of audio and video must be requested');
      return new MediaStream(tracks);
    };
  }
  if (window.crypto && crypto.randomUUID) {  // the page is a secure context: ids from the seed too
    const hex = (n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
    crypto.randomUUID = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(rand() * 4)]}${hex(3)}-${hex(12)}`;
  }
  // Frames from the (virtual) timer queue: the clock's own requestAnimationFrame drifts by a
  // frame between two copies of a page, which would break the lockstep twin.
  window.requestAnimationFrame = (cb) => setTimeout(() => cb(performance.now()), __FRAME_MS__);
  window.cancelAnimationFrame = (id) => clearTimeout(id);
  // pending timers (animation frames included): a page with none left is idle, and what it
  // shows without input is simply what it shows now
  const pending = (G.pending = new Set());
  const st = window.setTimeout, ct = window.clearTimeout, si = window.setInterval, ci = window.clearInterval;
  // timers scheduled outside any timer callback: by an input handler (or loading). A control
  // whose handler schedules work may answer late (a Start button whose timer ticks at 1 s).
  G.scheduled = 0;
  let inTimer = 0;
  const timed = (fn) => function (...a) {
    inTimer++;
    try { return fn.apply(this, a); } finally { inTimer--; G.sync(); }  // CSS motion follows the callback's time
  };
  window.setTimeout = function (fn, ms, ...args) {
    if (typeof fn !== 'function') { G.untracked = true; return st.call(window, fn, ms, ...args); }
    if (!inTimer) G.scheduled++;
    const run = timed(fn);
    const id = st.call(window, function (...a) { pending.delete(id); return run.apply(this, a); }, ms, ...args);
    pending.add(id);
    return id;
  };
  window.clearTimeout = (id) => { pending.delete(id); return ct.call(window, id); };
  window.setInterval = function (fn, ms, ...args) {
    if (typeof fn !== 'function') { G.untracked = true; return si.call(window, fn, ms, ...args); }
    if (!inTimer) G.scheduled++;
    const id = si.call(window, timed(fn), ms, ...args); pending.add(id); return id;
  };
  window.clearInterval = (id) => { pending.delete(id); return ci.call(window, id); };
  // --- CSS animations, transitions, the Web Animations API and SMIL on the virtual clock -----
  // They run on the compositor's real-time timeline, which the paused clock does not hold:
  // two copies of a page would drift apart and a snapshot would depend on the machine's speed.
  // So every animation is held paused and set to the time the virtual clock says it has run
  // (its birth: the virtual time it was first seen, which is when it was made, since we look
  // after every timer callback, every input and every real frame). A finite one that reaches
  // its end is finished, so `animationend`, `transitionend` and `finished` still fire. What the
  // page does to an animation itself (pause, play, seek, rate, CSS animation-play-state) is
  // honoured: a seek or rate change re-bases it, a pause holds it where it is.
  const held = new WeakMap();  // animation -> { t: virtual birth, ct: its time then, set: the time we last gave it, rate }
  const pagePaused = new WeakSet();
  const AP = window.Animation && Animation.prototype;
  const vnow = () => performance.now();
  let pauseA = null, finishA = null, playState = null;
  if (AP) {
    pauseA = AP.pause; finishA = AP.finish;
    const play = AP.play, d = Object.getOwnPropertyDescriptor(AP, 'playState');
    playState = d && d.get;
    AP.pause = function () { pagePaused.add(this); return pauseA.call(this); };
    // play() resumes from where the animation stands (a finished one restarts): held from there
    AP.play = function () {
      pagePaused.delete(this);
      const out = play.call(this);
      if (this.currentTime !== null) { pauseA.call(this); held.set(this, { t: vnow(), ct: this.currentTime, set: this.currentTime, rate: this.playbackRate }); }
      return out;
    };
    // a held animation is running as far as the page can tell
    if (playState) Object.defineProperty(AP, 'playState', { configurable: true, get() {
      const ps = playState.call(this);
      return ps === 'paused' && held.has(this) && !pagePaused.has(this) ? 'running' : ps;
    } });
  }
  const cssPaused = (a) => {
    if (!window.CSSAnimation || !(a instanceof CSSAnimation) || !a.effect || !a.effect.target) return false;
    const cs = getComputedStyle(a.effect.target, a.effect.pseudoElement || null);
    const names = cs.animationName.split(','), states = cs.animationPlayState.split(',');
    const k = names.map((n) => n.trim()).indexOf(a.animationName);
    return (states[k >= 0 ? k % states.length : 0] || '').trim() === 'paused';
  };
  const svgs = new WeakMap();  // outermost <svg> with SMIL -> virtual birth
  const SMIL = 'animate, animateTransform, animateMotion, set';
  const svgPause = window.SVGSVGElement && SVGSVGElement.prototype.pauseAnimations;
  const svgUnpause = window.SVGSVGElement && SVGSVGElement.prototype.unpauseAnimations;
  const svgPaused = new WeakSet();
  if (svgPause) {
    SVGSVGElement.prototype.pauseAnimations = function () { svgPaused.add(this); return svgPause.call(this); };
    SVGSVGElement.prototype.unpauseAnimations = function () { svgPaused.delete(this); svgs.delete(this); };
  }
  let syncing = false;
  G.sync = () => {
    if (syncing || !AP || !document.getAnimations) return;
    syncing = true;
    try {
      const now = vnow();
      for (const a of document.getAnimations()) {
        if (pagePaused.has(a) || (playState && playState.call(a) === 'finished')) continue;
        const ct = a.currentTime;
        if (ct === null) continue;
        let h = held.get(a);
        // first seen, or the page moved it (a seek) or changed its rate: re-base
        if (!h || (h.set !== null && Math.abs(ct - h.set) > 0.5) || h.rate !== a.playbackRate) {
          h = { t: now, ct: h ? ct : 0, set: null, rate: a.playbackRate };
          held.set(a, h);
          pauseA.call(a);
        }
        if (cssPaused(a)) { h.t = now; h.ct = ct; h.set = ct; continue; }
        const target = Math.max(0, h.ct + (now - h.t) * a.playbackRate);
        const tm = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
        if (tm && Number.isFinite(tm.endTime) && a.playbackRate > 0 && target >= tm.endTime) {
          held.delete(a);
          finishA.call(a);
          continue;
        }
        a.currentTime = target;
        h.set = a.currentTime;
      }
      for (const anim of document.querySelectorAll(SMIL)) {
        const svg = anim.ownerSVGElement && (anim.ownerSVGElement.ownerSVGElement || anim.ownerSVGElement);
        if (!svg || svgPaused.has(svg)) continue;
        let t = svgs.get(svg);
        if (t === undefined) { t = now - svg.getCurrentTime() * 1000; svgs.set(svg, t); svgPause.call(svg); }
        const want = (now - t) / 1000;
        if (Math.abs(svg.getCurrentTime() - want) > 1e-4) svg.setCurrentTime(want);
      }
    } catch (e) { /* never break the page */ } finally { syncing = false; }
  };
  // whether something is still set to move (held animations not at rest, SMIL on a running svg)
  G.animating = () => {
    if (!document.getAnimations) return false;
    for (const a of document.getAnimations()) {
      if (pagePaused.has(a) || !held.has(a) || cssPaused(a)) continue;
      const tm = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
      if (tm && (!Number.isFinite(tm.endTime) || (a.currentTime !== null && a.currentTime < tm.endTime))) return true;
    }
    for (const anim of document.querySelectorAll(SMIL)) {
      const svg = anim.ownerSVGElement && (anim.ownerSVGElement.ownerSVGElement || anim.ownerSVGElement);
      if (svg && !svgPaused.has(svg)) return true;
    }
    return false;
  };
  // what loading made is held from the start; what inputs make, by the probe after each input
  // (Session.gesture); the clock's own requestAnimationFrame is virtual too, so real frames
  // cannot be used to catch them
  document.addEventListener('DOMContentLoaded', () => G.sync());
  window.addEventListener('load', () => G.sync());
  // resize events seen: the probe waits for the page to hear a viewport change before measuring
  G.resizes = 0;
  window.addEventListener('resize', () => { G.resizes++; }, true);
  // --- containment -------------------------------------------------------------------------
  // dialogs answered as the person who pressed the button would (a Stop that asks "sure?" is
  // confirmed, a prompt gets its default or "1"), without blocking; after 8 a page that keeps
  // asking (`while (confirm(...))`) is refused, so its loop ends
  let asked = 0;
  // what a control does outside the screen is its response: an Export that downloads a file, a
  // Copy that writes the clipboard (never the machine's: it resolves at once, the same on every
  // run), a Print, a message box, a file chooser. Counted, so the page that got the input
  // differs from its counterfactual
  G.effects = 0; G.effect = '';
  // (and a signature for the quiet-window baseline method, which reads no snapshot)
  const effect = (what) => { G.effects++; G.effect = what; G.mutations.push('effect:' + what); };
  window.print = () => effect('prints');
  // a message box is what the person who pressed the button sees ("Coming soon!"): a response;
  // so is the file chooser a button opens for a hidden file field
  window.alert = () => effect('shows a message');
  const inputClick = HTMLInputElement.prototype.click;
  HTMLInputElement.prototype.click = function () {
    if (this.type === 'file') { effect('opens a file chooser'); return undefined; }
    return inputClick.call(this);
  };
  if (HTMLInputElement.prototype.showPicker) {
    HTMLInputElement.prototype.showPicker = function () { effect('opens a picker'); };
  }
  const anchorClick = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    // a detached <a download> clicked by script never reaches the document's listeners
    if (this.hasAttribute('download') && !this.isConnected) effect('downloads a file');
    return anchorClick.call(this);
  };
  if (navigator.clipboard) {
    for (const m of ['writeText', 'write']) {
      if (navigator.clipboard[m]) navigator.clipboard[m] = () => { effect('copies to the clipboard'); return Promise.resolve(); };
    }
  }
  const execCommand = Document.prototype.execCommand;
  // an editing command (Bold, a list, undo) is the response a toolbar button owes: with
  // nothing selected it changes nothing visible yet, and that is the probe's input, not the page
  Document.prototype.execCommand = function (cmd, ...rest) {
    const c = String(cmd);
    if (/^(copy|cut)$/i.test(c)) effect('copies to the clipboard');
    else if (!/^(paste|selectAll)$/i.test(c)) effect(`edits the text (${c.slice(0, 24)})`);
    return execCommand.call(this, cmd, ...rest);
  };
  window.confirm = () => ++asked <= 8;
  window.prompt = (m, d) => (++asked <= 8 ? (d == null || d === '' ? '1' : String(d)) : null);
  window.open = () => null;
  // history spam floods the browser process with IPC: the first 50 entries are plenty
  for (const m of ['pushState', 'replaceState']) {
    const f = History.prototype[m]; let n = 0;
    History.prototype[m] = function (...a) { if (++n <= 50) return f.apply(this, a); };
  }
  // links that would leave the page are followed nowhere (the router answers other
  // navigations with 204, which keeps the document too)
  window.addEventListener('click', (e) => {
    const a = e.target && e.target.closest && e.target.closest('a[href]');
    if (!a) return;
    if (a.hasAttribute('download')) { effect('downloads a file'); e.preventDefault(); return; }
    const u = new URL(a.href, location.href);
    if (u.origin + u.pathname !== location.origin + location.pathname || a.target === '_blank') e.preventDefault();
  }, true);
  // --- listeners ---------------------------------------------------------------------------
  const KEY = new Set(['keydown', 'keyup', 'keypress']);
  const CLICK = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick']);
  // elements that hear a press: a drag may operate them (probe: page.js draggable)
  const DOWN = new Set(['mousedown', 'pointerdown', 'touchstart']);
  G.downEls = new Set();
  // elements (or the window) that hear the pointer at all, moves and the wheel included: a
  // canvas none of whose listeners hears it is no control (a keyboard game's board)
  const POINTER = new Set([...CLICK, 'mousemove', 'pointermove', 'mouseover', 'mouseenter', 'mouseout', 'mouseleave',
    'pointerover', 'pointerenter', 'wheel', 'touchmove', 'touchend', 'contextmenu']);
  G.pointerEls = new Set();
  // the sources of key handlers: the probe presses the keys they compare against
  G.keySources = [];
  const keySource = (fn) => { if (fn && G.keySources.length < 20) try { G.keySources.push(String(fn).slice(0, 20000)); } catch (e) { /* a proxy */ } };
  const origAdd = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    G.listeners++;
    if (KEY.has(type)) {
      const kind = this === window ? 'window' : this === document ? 'document' : (this && this.tagName ? this.tagName.toLowerCase() : 'other');
      G.keyTargets.add(kind);
      if (this instanceof Element && !G.keyEl) G.keyEl = this;
      keySource(fn);
    }
    if (CLICK.has(type) && this instanceof Element && G.clickTargets.length < 500) G.clickTargets.push(this);
    if (CLICK.has(type) && (this === window || this === document)) G.docClick = true;
    if (DOWN.has(type) && this instanceof Element && G.downEls.size < 500) G.downEls.add(this);
    if (POINTER.has(type) && this instanceof Element && G.pointerEls.size < 500) G.pointerEls.add(this);
    if (POINTER.has(type) && (this === window || this === document)) G.docPointer = true;
    return origAdd.call(this, type, fn, opts);
  };
  // handlers assigned as properties (cell.onclick = ...) make a control as much as listeners do
  for (const ev of ['onclick', 'onmousedown', 'onmouseup', 'onpointerdown', 'ontouchstart', 'ondblclick']) {
    const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, ev);
    if (d && d.set) Object.defineProperty(HTMLElement.prototype, ev, { configurable: true, get: d.get, set(v) {
      if (v && G.clickTargets.length < 500) G.clickTargets.push(this);
      if (v && DOWN.has(ev.slice(2)) && G.downEls.size < 500) G.downEls.add(this);
      return d.set.call(this, v);
    } });
  }
  for (const [obj, name] of [[window, 'window'], [Document.prototype, 'document']]) {
    for (const ev of ['onkeydown', 'onkeyup', 'onkeypress']) {
      const d = Object.getOwnPropertyDescriptor(obj, ev);
      if (d && d.set) Object.defineProperty(obj, ev, { configurable: true, get: d.get, set(v) { G.keyTargets.add(name); keySource(v); return d.set.call(this, v); } });
    }
  }
  // --- canvas 2D ----------------------------------------------------------------------------
  const C2D = window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype;
  const DRAW = ['fillRect', 'strokeRect', 'clearRect', 'fillText', 'strokeText', 'drawImage', 'fill', 'stroke', 'putImageData', 'arc', 'lineTo', 'rect', 'ellipse'];
  const round = (a) => (typeof a === 'number' ? Math.round(a) : typeof a === 'string' ? a.slice(0, 40) : typeof a);
  // where shapes were drawn (canvas pixels, most recent last): a user clicks pieces, not corners
  G.shapes = new WeakMap();
  const SHAPE = { fillRect: [0, 1, 2, 3], strokeRect: [0, 1, 2, 3], rect: [0, 1, 2, 3], arc: [0, 1, 2], ellipse: [0, 1, 2], fillText: [1, 2], drawImage: [1, 2, 3, 4] };
  const shape = (ctx, m, args) => {
    const ix = SHAPE[m], c = ctx.canvas; if (!ix || !c || typeof args[ix[0]] !== 'number') return;
    let [x, y, w, h] = ix.map((k) => args[k]);
    if (m === 'arc' || m === 'ellipse') { w = h = 2 * (w || 0); }
    else if (m === 'fillText') { w = h = 0; }
    else if (m === 'drawImage') { if (args.length < 5) { w = (args[0] && args[0].width) || 0; h = (args[0] && args[0].height) || 0; } x += w / 2; y += h / 2; }
    else { x += w / 2; y += h / 2; }
    if (!(Math.abs(w * h) < 0.5 * c.width * c.height)) return;  // backgrounds and clears are not targets
    const t = ctx.getTransform(), p = t.transformPoint({ x, y });
    let list = G.shapes.get(c); if (!list) G.shapes.set(c, (list = new Map()));
    const key = Math.round(p.x / 8) + ':' + Math.round(p.y / 8);
    list.delete(key); list.set(key, [p.x, p.y]);
    if (list.size > 64) list.delete(list.keys().next().value);
  };
  // where numbers were written on a canvas (an FPS counter, a frame number, a clock): the
  // motion check looks past them, since a still scene whose only change is a counter is not
  // an animation (canvas pixels, most recent last; emptied by each motion sample)
  G.numberBoxes = new WeakMap();
  G.canvasTexts = new Set();  // what the page wrote on canvases: text a request's checklist may look for
  const numberBox = (ctx, args) => {
    if (!/\d/.test(String(args[0])) || typeof args[1] !== 'number') return;
    const c = ctx.canvas; if (!c) return;
    const w = ctx.measureText(String(args[0])).width, h = (parseFloat(ctx.font) || 10) * 1.4;
    const t = ctx.getTransform(), p = t.transformPoint({ x: args[1], y: args[2] });
    const sx = Math.hypot(t.a, t.b) || 1, sy = Math.hypot(t.c, t.d) || 1;
    const al = ctx.textAlign, x0 = al === 'center' ? p.x - (w * sx) / 2 : al === 'right' || al === 'end' ? p.x - w * sx : p.x;
    let list = G.numberBoxes.get(c); if (!list) G.numberBoxes.set(c, (list = []));
    if (list.length < 200) list.push([x0 - 2, p.y - h * sy, w * sx + 4, 2 * h * sy]);
  };
  if (C2D) for (const m of DRAW) {
    const f = C2D[m]; if (typeof f !== 'function') continue;
    C2D[m] = function (...args) {
      if (G.draws.length < 20000) G.draws.push(m + '(' + args.map(round).join(',') + ')' + (m.startsWith('fill') ? this.fillStyle : m.startsWith('stroke') ? this.strokeStyle : ''));
      try {
        shape(this, m, args);
        if (m === 'fillText' || m === 'strokeText') { numberBox(this, args); if (G.canvasTexts.size < 300) G.canvasTexts.add(String(args[0]).slice(0, 80)); }
      } catch (e) { /* never break the page's drawing */ }
      return f.apply(this, args);
    };
  }
  // WebGL: keep the drawing buffer so pixels can be read back, and log draw calls
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs) {
    // no MSAA: on a software rasteriser it multiplies the cost of every frame, and a verdict needs no smooth edges
    if (/webgl/.test(String(type))) attrs = Object.assign({}, attrs || {}, { preserveDrawingBuffer: true, antialias: false });
    return getContext.call(this, type, attrs);
  };
  for (const P of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    if (!P) continue;
    for (const m of ['drawArrays', 'drawElements', 'clear', 'uniform1f', 'uniform2f', 'uniform3f', 'uniform4f', 'uniformMatrix4fv']) {
      const f = P.prototype[m]; if (typeof f !== 'function') continue;
      P.prototype[m] = function (...args) {
        if (G.draws.length < 20000) G.draws.push('gl.' + m + '(' + args.map((a) => (a && a.length ? Array.from(a).map(round).join(':') : round(a))).join(',') + ')');
        return f.apply(this, args);
      };
    }
  }
  // --- DOM mutations, shadow roots included --------------------------------------------------
  const observe = (root) => new MutationObserver((recs) => {
    for (const r of recs) if (G.mutations.length < 20000) G.mutations.push(r.type + ':' + (r.target.nodeName || '') + ':' + (r.attributeName || ''));
  }).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) { const root = attach.call(this, init); observe(root); return root; };
  observe(document);
  window.addEventListener('error', (e) => G.errors.push(String(e.message || e.error || 'error').slice(0, 200)));
})();
