const cv = $('tank'), ctx = cv.getContext('2d');
const LW = 480, LH = 320, GW = 120, GH = 80;
const img = ctx.createImageData(GW, GH), off = document.createElement('canvas');
off.width = GW; off.height = GH;
let lambda = 28, gap = 90, phase = 0, running = false, raf = null, view = $('view').value, probe = null, score = 0;

function fit() {
  const w = Math.min(560, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function sources() { return [[LW / 2 - gap / 2, 0], [LW / 2 + gap / 2, 0]]; }
function amplitude(x, y, ph) {
  let a = 0;
  for (const [sx, sy] of sources()) { const d = Math.hypot(x - sx, y - sy); a += Math.cos(2 * Math.PI * d / lambda - ph); }
  return a;
}
function steady(x, y) {  // the time-independent envelope: |sum of the two phasors|
  const [[ax, ay], [bx, by]] = sources();
  const dd = Math.hypot(x - ax, y - ay) - Math.hypot(x - bx, y - by);
  return Math.abs(2 * Math.cos(Math.PI * dd / lambda));
}
function draw() {
  const s = cv.width / LW, accent = cssVar('--accent');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (view === 'field') {
    for (let j = 0; j < GH; j++) for (let i = 0; i < GW; i++) {
      const a = amplitude((i + .5) * LW / GW, (j + .5) * LH / GH, phase), k = 4 * (j * GW + i), c = 128 + 60 * a;
      img.data[k] = c * 0.55; img.data[k + 1] = c * 0.75; img.data[k + 2] = c; img.data[k + 3] = 255;
    }
    off.getContext('2d').putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = true; ctx.drawImage(off, 0, 0, cv.width, cv.height);
    ctx.setTransform(s, 0, 0, s, 0, 0);
  } else {
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
    ctx.strokeStyle = accent; ctx.globalAlpha = 0.7;
    for (const [sx, sy] of sources()) for (let r = (phase / (2 * Math.PI)) % 1 * lambda; r < 600; r += lambda) {
      ctx.beginPath(); ctx.arc(sx, sy, r, 0, Math.PI); ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
  ctx.fillStyle = '#f59e0b';
  for (const [sx, sy] of sources()) { ctx.beginPath(); ctx.arc(sx, sy + 4, 6, 0, Math.PI * 2); ctx.fill(); }
  if (probe) {
    ctx.strokeStyle = '#e11d48'; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(probe[0], probe[1], 9, 0, Math.PI * 2); ctx.stroke(); ctx.lineWidth = 1;
  }
}
function readProbe() {
  if (!probe) return;
  const a = steady(probe[0], probe[1]);
  $('probe').textContent = a.toFixed(2) + ' (' + (a > 1 ? T.constructive : T.destructive) + ')';
}
function frame() { if (!running) return; phase += 0.25; draw(); raf = requestAnimationFrame(frame); }
function setRunning(on) {
  running = on; cancelAnimationFrame(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (phase > 0 ? T.resume : T.start);
  if (on) raf = requestAnimationFrame(frame);
}
function bindSlider(id, apply) { on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); readProbe(); draw(); }); }
bindSlider('lambda', (x) => { lambda = x; });
bindSlider('gap', (x) => { gap = x; });
on('view', 'change', (e) => { view = e.target.value; draw(); });
on('run', 'click', () => setRunning(!running));
on('reset', 'click', () => { phase = 0; probe = null; $('probe').textContent = '–'; setRunning(false); draw(); });
onTap(cv, (e) => {
  const r = cv.getBoundingClientRect(), s = r.width / LW;
  probe = [(e.clientX - r.left) / s, (e.clientY - r.top) / s]; readProbe(); draw(); kit.beep(640);
  if ($('score') && steady(probe[0], probe[1]) > 1.6) { score += 1; $('score').textContent = score; }  // found a bright band
});
kit.redraw = draw;
window.addEventListener('resize', fit);
fit();
