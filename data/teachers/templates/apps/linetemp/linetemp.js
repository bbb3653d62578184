const CITIES = @@cities@@, NAMES = Object.keys(CITIES), SVG = @@svg@@, AREA = @@area@@, ANIMATE = @@animate@@;
const el = $('chart'), LW = 560, LH = 320;
let city = NAMES[0], fahrenheit = false, cursor = 6, shown = 12, playing = false, timer = null;

function conv(c) { return fahrenheit ? c * 9 / 5 + 32 : c; }
function unit() { return fahrenheit ? '°F' : '°C'; }
function scale() {
  const all = NAMES.flatMap((n) => CITIES[n]).map(conv), lo = Math.floor(Math.min(...all) / 5) * 5, hi = Math.ceil(Math.max(...all) / 5) * 5;
  return {lo, hi, x: (m) => 50 + m * (LW - 80) / 11, y: (t) => LH - 40 - (conv(t) - lo) / (hi - lo) * (LH - 70)};
}
function readouts() {
  const t = CITIES[city], mean = t.reduce((a, b) => a + b, 0) / 12;
  const hot = t.indexOf(Math.max(...t)), cold = t.indexOf(Math.min(...t));
  $('readout').textContent = city + ' · ' + T.months[cursor] + ': ' + conv(t[cursor]).toFixed(1) + ' ' + unit();
  $('mean').textContent = conv(mean).toFixed(1) + ' ' + unit();
  $('hot').textContent = T.months[hot] + ' (' + conv(t[hot]).toFixed(1) + ' ' + unit() + ')';
  $('cold').textContent = T.months[cold] + ' (' + conv(t[cold]).toFixed(1) + ' ' + unit() + ')';
  if ($('range')) $('range').textContent = (conv(t[hot]) - conv(t[cold])).toFixed(1) + (fahrenheit ? ' °F' : ' °C');
  if ($('rows')) $('rows').innerHTML = t.map((c, m) => '<tr><td>' + T.months[m] + '</td><td>' + conv(c).toFixed(1) + '</td></tr>').join('');
}
function draw() {
  const s = scale(), t = CITIES[city], accent = cssVar('--accent'), fg = cssVar('--fg'), line = cssVar('--line');
  const pts = t.slice(0, shown).map((c, m) => [s.x(m), s.y(c)]);
  if (SVG) {
    const p = [];
    for (let v = s.lo; v <= s.hi; v += 5) p.push('<line x1="45" x2="' + (LW - 20) + '" y1="' + s.y(fahrenheit ? (v - 32) * 5 / 9 : v) + '" y2="' + s.y(fahrenheit ? (v - 32) * 5 / 9 : v) + '" stroke="' + line + '"/><text x="40" y="' + (s.y(fahrenheit ? (v - 32) * 5 / 9 : v) + 4) + '" font-size="12" text-anchor="end" fill="' + fg + '">' + v + '</text>');
    T.months.forEach((m, i) => p.push('<text x="' + s.x(i) + '" y="' + (LH - 18) + '" font-size="12" text-anchor="middle" fill="' + fg + '">' + m + '</text>'));
    p.push('<polyline fill="none" stroke="' + accent + '" stroke-width="3" points="' + pts.map((q) => q.join(',')).join(' ') + '"/>');
    pts.forEach(([x, y], i) => p.push('<circle cx="' + x + '" cy="' + y + '" r="' + (i === cursor ? 8 : 4) + '" fill="' + (i === cursor ? '#e11d48' : accent) + '"/>'));
    el.innerHTML = p.join('');
    return;
  }
  const ctx = el.getContext('2d'), k = el.width / LW;
  ctx.setTransform(k, 0, 0, k, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  ctx.font = '12px sans-serif'; ctx.fillStyle = fg; ctx.strokeStyle = line;
  for (let v = s.lo; v <= s.hi; v += 5) {
    const y = LH - 40 - (v - s.lo) / (s.hi - s.lo) * (LH - 70);
    ctx.beginPath(); ctx.moveTo(45, y); ctx.lineTo(LW - 20, y); ctx.stroke(); ctx.textAlign = 'right'; ctx.fillText(v, 40, y + 4);
  }
  ctx.textAlign = 'center';
  T.months.forEach((m, i) => ctx.fillText(m, s.x(i), LH - 18));
  if (AREA && pts.length) {
    const g = ctx.createLinearGradient(0, 0, 0, LH); g.addColorStop(0, accent); g.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = g; ctx.globalAlpha = 0.35; ctx.beginPath(); ctx.moveTo(pts[0][0], LH - 40);
    pts.forEach(([x, y]) => ctx.lineTo(x, y)); ctx.lineTo(pts[pts.length - 1][0], LH - 40); ctx.fill(); ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = accent; ctx.lineWidth = 3; ctx.beginPath();
  pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); ctx.lineWidth = 1;
  pts.forEach(([x, y], i) => { ctx.fillStyle = i === cursor ? '#e11d48' : accent; ctx.beginPath(); ctx.arc(x, y, i === cursor ? 7 : 4, 0, Math.PI * 2); ctx.fill(); });
}
function update() { readouts(); draw(); }
function move(by) { cursor = (cursor + by + 12) % 12; update(); }
function play(on) {
  playing = on; clearInterval(timer);
  if ($('play')) $('play').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (shown < 12 ? T.resume : T.animate);
  if (!on) return;
  if (shown >= 12) shown = 0;
  timer = setInterval(() => { shown += 1; cursor = Math.max(0, shown - 1); update(); if (shown >= 12) play(false); }, 300);
}
function fit() {
  if (SVG) return draw();
  const w = Math.min(620, el.parentElement.clientWidth - 28);
  el.width = Math.round(w); el.height = Math.round(w * LH / LW); draw();
}
on('city', 'change', (e) => { city = e.target.value; update(); });
on('prev', 'click', () => move(-1));
on('next', 'click', () => move(1));
on('unit', 'click', () => { fahrenheit = !fahrenheit; $('unit').textContent = fahrenheit ? '°F → °C' : '°C → °F'; update(); });
on('play', 'click', () => play(!playing));
on('reset', 'click', () => {
  play(false); city = NAMES[0]; fahrenheit = false; cursor = 6; shown = 12;
  $('city').value = city; $('unit').textContent = '°C → °F'; if ($('play')) $('play').textContent = '▶ ' + T.animate; update();
});
onTap(el, (e) => {  // the month nearest to the pointer
  const r = el.getBoundingClientRect(), x = (e.clientX - r.left) / r.width * LW;
  cursor = Math.max(0, Math.min(11, Math.round((x - 50) / ((LW - 80) / 11)))); update();
});
@@keys@@document.querySelectorAll('.tab').forEach((tab) => onTap(tab, () => {
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('on', t === tab));
  document.querySelectorAll('.tabpanel').forEach((p) => { p.hidden = p.id !== 'panel-' + tab.dataset.panel; });
}));
kit.redraw = draw;
window.addEventListener('resize', fit);
readouts(); fit();
