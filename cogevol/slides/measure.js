// Measures every slide element from the live DOM, in px relative to its slide's canvas.
// box: the contract's box; ink: what the element actually paints (box plus overflowing content);
// blocks: text blocks with their line count and characters (line length, font size);
// chart: plot area, marks, labels and axes as drawn.
(() => {
  const rel = (r, o) => [r.left - o.left, r.top - o.top, r.width, r.height];
  const union = (a, b) => {
    const x = Math.min(a[0], b[0]), y = Math.min(a[1], b[1]);
    return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
  };
  const lines = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set();
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
    return tops.size;
  };
  const out = [];
  for (const el of document.querySelectorAll('.el')) {
    const origin = el.closest('.slide').getBoundingClientRect();
    const box = rel(el.getBoundingClientRect(), origin);
    const m = {slide: +el.dataset.slide, index: +el.dataset.index, type: el.dataset.type, box, ink: box,
               overflow_x: 0, overflow_y: 0, blocks: [], font_min: null, chars: 0};
    const content = el.querySelector('.content');
    if (content) {
      const c = rel(content.getBoundingClientRect(), origin);
      const table = content.querySelector('table');
      let right = Math.max(c[0] + content.scrollWidth, c[0] + c[2]);
      let bottom = c[1] + c[3];
      if (table) {
        const t = rel(table.getBoundingClientRect(), origin);
        right = Math.max(right, t[0] + t[2]);
        bottom = Math.max(bottom, t[1] + t[3]);
      }
      m.ink = union(box, [c[0], c[1], right - c[0], bottom - c[1]]);
      m.overflow_x = Math.max(0, right - (box[0] + box[2]));
      m.overflow_y = Math.max(0, bottom - (box[1] + box[3]));
      const blocks = content.querySelectorAll('li, th, td');
      for (const b of (blocks.length ? blocks : [content])) {
        const text = (b.textContent || '').trim();
        if (!text) continue;
        m.blocks.push({chars: text.length, lines: Math.max(1, lines(b)), cell: b.tagName !== 'LI' && b !== content,
                       size: parseFloat(getComputedStyle(b).fontSize)});
        m.chars += text.length;
      }
      const sizes = m.blocks.map((b) => b.size);
      m.font_min = sizes.length ? Math.min(...sizes) : null;
    }
    const svg = el.querySelector('svg.chart');
    if (svg) {
      const pa = svg.querySelector('.plot-area');
      const rects = (sel) => [...svg.querySelectorAll(sel)].map((n) => rel(n.getBoundingClientRect(), origin));
      m.chart = {kind: svg.dataset.chart, plot: pa ? rel(pa.getBoundingClientRect(), origin) : null,
                 marks: rects('.mark'), labels: rects('.label, .tick'), axes: svg.querySelectorAll('.axis').length};
      const all = [box, ...m.chart.labels, ...m.chart.marks];
      m.ink = all.reduce(union);
    }
    out.push(m);
  }
  return out;
})()
