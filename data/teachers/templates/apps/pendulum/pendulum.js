const cv = $('sim'), ctx = cv.getContext('2d');
const LW = 520, LH = 360, VIEW = '@@view@@';
let L = 1.5, amp = 30, g = 9.81, theta = 0, omega = 0, t = 0, running = false, raf = null, trace = [];

function fit() {
  const w = Math.min(560, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function restart() { theta = amp * Math.PI / 180; omega = 0; t = 0; trace = []; readouts(); draw(); }
function readouts() {
  $('period').textContent = (2 * Math.PI * Math.sqrt(L / g)).toFixed(2);
  $('angle').textContent = (theta * 180 / Math.PI).toFixed(1);
  $('clock').textContent = t.toFixed(1);
}
function physics(dt) {
  for (let k = 0; k < 4; k++) {  // semi-implicit Euler, small steps: stable for any angle
    omega += (-(g / L) * Math.sin(theta) - 0.02 * omega) * dt / 4;
    theta += omega * dt / 4;
  }
  t += dt;
  trace.push(theta); if (trace.length > 120) trace.shift();
}
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  const px = VIEW === 'trace' ? 170 : LW / 2, py = 30, scale = (LH - 80) / 3.2;
  const bx = px + Math.sin(theta) * L * scale, by = py + Math.cos(theta) * L * scale;
  ctx.strokeStyle = cssVar('--line'); ctx.setLineDash([4, 4]);
  ctx.beginPath(); ctx.moveTo(px, py); ctx.lineTo(px, LH - 20); ctx.stroke(); ctx.setLineDash([]);
  ctx.fillStyle = cssVar('--fg'); ctx.fillRect(px - 40, py - 8, 80, 8);
  ctx.strokeStyle = cssVar('--fg'); ctx.lineWidth = 2;
  ctx.beginPath(); ctx.moveTo(px, py); ctx.lineTo(bx, by); ctx.stroke(); ctx.lineWidth = 1;
  ctx.fillStyle = cssVar('--accent'); ctx.beginPath(); ctx.arc(bx, by, 16, 0, Math.PI * 2); ctx.fill();
  if (VIEW === 'trace') {  // angle over time, the last four seconds
    const x0 = 330, w = 170, y0 = LH / 2;
    ctx.strokeStyle = cssVar('--line'); ctx.strokeRect(x0, 40, w, LH - 80);
    ctx.strokeStyle = cssVar('--accent'); ctx.beginPath();
    trace.forEach((a, i) => { const x = x0 + i / 120 * w, y = y0 - a / 1.6 * (LH / 2 - 50); i ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    ctx.stroke();
  }
  if (VIEW === 'energy') {  // kinetic and potential energy share, per unit mass
    const pe = g * L * (1 - Math.cos(theta)), ke = 0.5 * (L * omega) ** 2, tot = Math.max(pe + ke, 1e-6);
    const x0 = LW - 70, h = LH - 90;
    ctx.fillStyle = cssVar('--line'); ctx.fillRect(x0, 40, 40, h);
    ctx.fillStyle = '#f59e0b'; ctx.fillRect(x0, 40 + h * (1 - ke / tot), 40, h * ke / tot);
    ctx.fillStyle = cssVar('--fg'); ctx.font = '13px sans-serif'; ctx.textAlign = 'center';
    ctx.fillText(T.energy, x0 + 20, 30); ctx.fillText(T.kinetic, x0 + 20, LH - 32);
  }
}
function frame() { if (!running) return; physics(1 / 60); readouts(); draw(); raf = requestAnimationFrame(frame); }
function setRunning(on) {
  running = on; cancelAnimationFrame(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (t > 0 ? T.resume : T.start);
  if (on) raf = requestAnimationFrame(frame);
}
function bindSlider(id, apply) {
  on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); readouts(); draw(); });
}
bindSlider('len', (x) => { L = x; });
bindSlider('amp', (x) => { amp = x; restart(); });
on('grav', 'change', (e) => { g = parseFloat(e.target.value); readouts(); });
on('run', 'click', () => setRunning(!running));
on('reset', 'click', () => { restart(); setRunning(false); });
onTap(cv, (e) => {  // release the bob from where the user tapped
  const r = cv.getBoundingClientRect(), s = r.width / LW;
  const px = VIEW === 'trace' ? 170 : LW / 2;
  const a = Math.atan2((e.clientX - r.left) / s - px, Math.max(1, (e.clientY - r.top) / s - 30));
  theta = Math.max(-1.5, Math.min(1.5, a)); omega = 0; trace = []; readouts(); draw();
});
kit.redraw = draw;
window.addEventListener('resize', fit);
restart(); fit();
