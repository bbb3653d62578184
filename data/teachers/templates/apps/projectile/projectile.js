const cv = $('field'), ctx = cv.getContext('2d');
const LW = 560, LH = 320, TARGET = @@target@@;
let angle = 45, speed = 18, g = 9.81, shots = [], flying = null, raf = null, goal = 0;

function fit() {
  const w = Math.min(600, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function flight(a, v) {
  const r = a * Math.PI / 180, vx = v * Math.cos(r), vy = v * Math.sin(r), T = 2 * vy / g;
  return {vx, vy, T, range: vx * T, top: vy * vy / (2 * g)};
}
function worldWidth() {
  const f = flight(angle, speed);
  return Math.max(40, f.range * 1.2, TARGET ? goal * 1.2 : 0, ...shots.map((s) => s.range * 1.05));
}
function toPx(x, y, W) { const s = (LW - 40) / W; return [20 + x * s, LH - 24 - y * s]; }
function readouts() {
  const f = flight(angle, speed);
  $('range').textContent = f.range.toFixed(1); $('height').textContent = f.top.toFixed(1); $('flight').textContent = f.T.toFixed(2);
  if (TARGET) $('target').textContent = goal.toFixed(0);
}
function path(a, v, W, until) {
  const f = flight(a, v), n = 60, pts = [];
  for (let i = 0; i <= n; i++) { const t = Math.min(until, f.T) * i / n; pts.push(toPx(f.vx * t, f.vy * t - g * t * t / 2, W)); }
  return pts;
}
function draw() {
  const s = cv.width / LW, W = worldWidth();
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  ctx.fillStyle = cssVar('--tint'); ctx.fillRect(0, LH - 24, LW, 24);
  ctx.fillStyle = cssVar('--muted'); ctx.font = '12px sans-serif'; ctx.textAlign = 'center';
  const step = W > 200 ? 50 : W > 80 ? 20 : 10;
  for (let x = 0; x <= W; x += step) { const [px] = toPx(x, 0, W); ctx.fillText(x + ' m', px, LH - 8); }
  if (TARGET) { const [tx, ty] = toPx(goal, 0, W); ctx.fillStyle = '#e11d48'; ctx.fillRect(tx - 10, ty - 6, 20, 6); }
  ctx.setLineDash([6, 5]); ctx.strokeStyle = cssVar('--muted'); ctx.beginPath();
  path(angle, speed, W, 1e9).forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); ctx.setLineDash([]);
  shots.forEach((sh, k) => {
    ctx.strokeStyle = k === shots.length - 1 ? cssVar('--accent') : cssVar('--line'); ctx.lineWidth = 2; ctx.beginPath();
    path(sh.angle, sh.speed, W, sh.t).forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); ctx.lineWidth = 1;
  });
  if (flying) {
    const f = flight(flying.angle, flying.speed), t = flying.t;
    const [bx, by] = toPx(f.vx * t, f.vy * t - g * t * t / 2, W);
    ctx.fillStyle = cssVar('--accent'); ctx.beginPath(); ctx.arc(bx, by, 7, 0, Math.PI * 2); ctx.fill();
  }
  const [cx, cy] = toPx(0, 0, W), r = angle * Math.PI / 180;
  ctx.strokeStyle = cssVar('--fg'); ctx.lineWidth = 6; ctx.beginPath(); ctx.moveTo(cx, cy); ctx.lineTo(cx + 28 * Math.cos(r), cy - 28 * Math.sin(r)); ctx.stroke(); ctx.lineWidth = 1;
}
function launch() {
  const f = flight(angle, speed);
  flying = {angle, speed, g, t: 0, range: f.range};
  shots.push(flying); if (shots.length > 6) shots.shift();
  kit.beep(500); cancelAnimationFrame(raf); raf = requestAnimationFrame(frame);
}
function frame() {
  const f = flight(flying.angle, flying.speed);
  flying.t = Math.min(f.T, flying.t + 1 / 30);
  draw();
  if (flying.t < f.T) { raf = requestAnimationFrame(frame); return; }
  let msg = T.range + ': ' + f.range.toFixed(1) + ' m';
  if (TARGET) {
    const off = Math.abs(f.range - goal);
    msg = off < 2 ? T.hit : T.miss + ' ' + off.toFixed(1) + ' m';
    if (off < 2) { goal = 20 + Math.floor(Math.random() * 30); readouts(); }
  }
  $('msg').textContent = msg; flying = null; draw();
}
function bindSlider(id, apply) {
  on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); readouts(); draw(); });
}
bindSlider('angle', (x) => { angle = x; });
bindSlider('speed', (x) => { speed = x; });
on('grav', 'change', (e) => { g = parseFloat(e.target.value); readouts(); draw(); });
on('launch', 'click', launch);
on('clear', 'click', () => { shots = []; flying = null; cancelAnimationFrame(raf); $('msg').textContent = T.ready; draw(); });
onTap(cv, (e) => {  // aim at the tapped point and fire
  const r = cv.getBoundingClientRect(), s = r.width / LW;
  const dx = (e.clientX - r.left) / s - 20, dy = LH - 24 - (e.clientY - r.top) / s;
  angle = Math.round(Math.max(10, Math.min(80, Math.atan2(Math.max(dy, 1), Math.max(dx, 1)) * 180 / Math.PI)));
  $('angle').value = angle; $('angle-out').textContent = angle; readouts(); launch();
});
kit.redraw = draw;
window.addEventListener('resize', fit);
goal = 20 + Math.floor(Math.random() * 30);
readouts(); fit();
