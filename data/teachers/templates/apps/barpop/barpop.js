const DATA = @@data@@, SVG = @@svg@@, HORIZONTAL = @@horizontal@@;
const el = $('chart'), LW = 560, LH = 320;
let years = 0, growth = 1, order = 'size', picked = -1;

function projected(d) { return d[1] * Math.pow(1 + d[2] * growth / 100, years); }
function rows() {
  const r = DATA.map((d, i) => ({i, name: d[0], now: d[1], rate: d[2], value: projected(d)}));
  if (order === 'size') r.sort((a, b) => b.value - a.value);
  else if (order === 'name') r.sort((a, b) => a.name.localeCompare(b.name));
  else r.sort((a, b) => b.rate - a.rate);
  return r;
}
function fmt(x) { return Math.round(x).toLocaleString('en-US'); }
function geometry(r) {
  const max = Math.max(...r.map((d) => d.value)) * 1.08;
  return r.map((d, k) => {
    if (HORIZONTAL) { const h = (LH - 20) / r.length; return {d, x: 120, y: 10 + k * h + 3, w: (LW - 180) * d.value / max, h: h - 6}; }
    const w = (LW - 50) / r.length, h = (LH - 70) * d.value / max;
    return {d, x: 40 + k * w + 4, y: LH - 50 - h, w: w - 8, h};
  });
}
function draw() {
  const r = rows(), bars = geometry(r), accent = cssVar('--accent'), fg = cssVar('--fg'), deep = '#f59e0b';
  $('heading').textContent = 'Population, ' + (2023 + years) + ' (' + T.millions + ')';
  if (SVG) {  // one group per country, created once and moved around: clicks keep their targets
    if (!el.childNodes.length) {
      el.innerHTML = '<line x1="116" y1="8" x2="116" y2="' + (LH - 8) + '" stroke="' + fg + '"/>' + DATA.map((d, i) =>
        '<g data-i="' + i + '"><rect class="bar" rx="4"/><text class="name" font-size="13" text-anchor="end"/><text class="val" font-size="13"/></g>').join('');
      el.querySelectorAll('g').forEach((node) => onTap(node.querySelector('rect'), () => pick(+node.dataset.i)));
    }
    for (const b of bars) {
      const g = el.querySelector('g[data-i="' + b.d.i + '"]'), [rect, name, val] = g.children;
      rect.setAttribute('x', b.x); rect.setAttribute('y', b.y); rect.setAttribute('width', Math.max(1, b.w)); rect.setAttribute('height', b.h);
      rect.setAttribute('fill', b.d.i === picked ? deep : accent);
      name.setAttribute('x', 110); name.setAttribute('y', b.y + b.h / 2 + 5); name.setAttribute('fill', fg); name.textContent = b.d.name;
      val.setAttribute('x', b.x + b.w + 5); val.setAttribute('y', b.y + b.h / 2 + 5); val.setAttribute('fill', fg); val.textContent = fmt(b.d.value);
    }
  } else {
    const ctx = el.getContext('2d'), s = el.width / LW;
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
    ctx.font = '12px sans-serif'; ctx.fillStyle = fg;
    for (const b of bars) {
      ctx.fillStyle = b.d.i === picked ? deep : accent; ctx.fillRect(b.x, b.y, b.w, b.h);
      ctx.fillStyle = fg;
      if (HORIZONTAL) {
        ctx.textAlign = 'right'; ctx.fillText(b.d.name, 112, b.y + b.h / 2 + 4);
        ctx.textAlign = 'left'; ctx.fillText(fmt(b.d.value), b.x + b.w + 4, b.y + b.h / 2 + 4);
      } else {
        ctx.textAlign = 'center'; ctx.fillText(fmt(b.d.value), b.x + b.w / 2, b.y - 4);
        ctx.save(); ctx.translate(b.x + b.w / 2, LH - 36); ctx.rotate(-0.6); ctx.textAlign = 'right'; ctx.fillText(b.d.name, 0, 0); ctx.restore();
      }
    }
  }
  const top = [...DATA].sort((a, b) => projected(b) - projected(a)).slice(0, 5);
  $('board-title').textContent = T.top + ' ' + (2023 + years);
  $('rank').innerHTML = top.map((d) => '<li>' + d[0] + ' — ' + fmt(projected(d)) + ' M</li>').join('');
}
function pick(i) {
  picked = i;
  const d = DATA[i];
  $('detail').textContent = d[0] + ': ' + fmt(d[1]) + ' M (2023) → ' + fmt(projected(d)) + ' M (' + (2023 + years) + '), '
    + (d[2] * growth >= 0 ? '+' : '') + (d[2] * growth).toFixed(2) + ' % ' + T.per_year;
  draw();
}
function fit() {
  if (SVG) return draw();
  const w = Math.min(620, el.parentElement.clientWidth - 28);
  el.width = Math.round(w); el.height = Math.round(w * LH / LW); draw();
}
function bindSlider(id, apply) {
  on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); if (picked >= 0) pick(picked); else draw(); });
}
bindSlider('years', (x) => { years = x; });
bindSlider('growth', (x) => { growth = x; });
on('sort', 'change', (e) => { order = e.target.value; draw(); });
if (!SVG) onTap(el, (e) => {  // which bar is under the pointer?
  const r = el.getBoundingClientRect(), s = r.width / LW, x = (e.clientX - r.left) / s, y = (e.clientY - r.top) / s;
  const hit = geometry(rows()).find((b) => (HORIZONTAL ? y >= b.y - 3 && y <= b.y + b.h + 3 : x >= b.x - 4 && x <= b.x + b.w + 4));
  if (hit) pick(hit.d.i);
});
kit.redraw = draw;
window.addEventListener('resize', fit);
fit();
