const cv = $('chart'), ctx = cv.getContext('2d');
const LW = 560, LH = 300, PHASE = @@phase@@, BETA = 0.4, DELTA = 0.1;
let alpha = 1.1, gamma = 0.4, prey = 10, pred = 10, t = 0, hist = [], running = false, raf = null;

function fit() {
  const w = Math.min(600, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function reset() { prey = 10; pred = 10; t = 0; hist = [[prey, pred]]; hud(); draw(); }
function deriv(x, y) { return [alpha * x - BETA * x * y, DELTA * x * y - gamma * y]; }
function step(dt) {  // fourth-order Runge-Kutta
  const [a1, b1] = deriv(prey, pred), [a2, b2] = deriv(prey + a1 * dt / 2, pred + b1 * dt / 2);
  const [a3, b3] = deriv(prey + a2 * dt / 2, pred + b2 * dt / 2), [a4, b4] = deriv(prey + a3 * dt, pred + b3 * dt);
  prey = Math.max(0.01, prey + dt * (a1 + 2 * a2 + 2 * a3 + a4) / 6);
  pred = Math.max(0.01, pred + dt * (b1 + 2 * b2 + 2 * b3 + b4) / 6);
  t += dt;
}
function hud() { $('prey').textContent = prey.toFixed(1); $('pred').textContent = pred.toFixed(1); $('year').textContent = t.toFixed(1); }
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  const top = Math.max(30, ...hist.map(([x, y]) => Math.max(x, y))) * 1.1;
  ctx.strokeStyle = cssVar('--line'); ctx.strokeRect(40, 10, LW - 50, LH - 40);
  ctx.fillStyle = cssVar('--muted'); ctx.font = '12px sans-serif'; ctx.textAlign = 'right';
  for (let k = 0; k <= 4; k++) { const val = top * k / 4, y = LH - 30 - (LH - 40) * k / 4; ctx.fillText(val.toFixed(0), 36, y + 4); }
  const every = Math.ceil(hist.length / 120), pts = hist.filter((_, i) => i % every === 0 || i === hist.length - 1);
  if (PHASE) {
    ctx.strokeStyle = cssVar('--accent'); ctx.beginPath();
    pts.forEach(([x, y], i) => { const px = 40 + x / top * (LW - 50), py = LH - 30 - y / top * (LH - 40); i ? ctx.lineTo(px, py) : ctx.moveTo(px, py); });
    ctx.stroke(); ctx.textAlign = 'left'; ctx.fillStyle = cssVar('--fg'); ctx.fillText(T.phase, 48, 26);
    return;
  }
  const n = pts.length;
  for (const [k, colour] of [[0, '#16a34a'], [1, '#dc2626']]) {
    ctx.strokeStyle = colour; ctx.lineWidth = 2; ctx.beginPath();
    pts.forEach((p, i) => { const x = 40 + (LW - 50) * i / Math.max(n - 1, 1), y = LH - 30 - p[k] / top * (LH - 40); i ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    ctx.stroke(); ctx.lineWidth = 1;
  }
}
function frame() {
  if (!running) return;
  for (let k = 0; k < 3; k++) step(0.02);
  hist.push([prey, pred]); if (hist.length > 360) hist.shift();
  hud(); draw(); raf = requestAnimationFrame(frame);
}
function setRunning(on) {
  running = on; cancelAnimationFrame(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (t > 0 ? T.resume : T.start);
  if (on) raf = requestAnimationFrame(frame);
}
function bindSlider(id, apply) { on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); draw(); }); }
bindSlider('alpha', (x) => { alpha = x; });
bindSlider('gamma', (x) => { gamma = x; });
on('run', 'click', () => setRunning(!running));
on('reset', 'click', () => { reset(); setRunning(false); });
on('add', 'click', () => { prey += 5; hist.push([prey, pred]); hud(); draw(); kit.beep(700); });
onTap(cv, () => { prey += 5; hist.push([prey, pred]); hud(); draw(); });
kit.redraw = draw;
window.addEventListener('resize', fit);
reset(); fit();
