const cv = $('scene'), G = glStart(cv), PLANETS = @@planets@@, STARS = @@stars@@, COUNTDOWN = @@countdown@@;
const ball = G.sphere(@@seg@@), orbit = G.ring(60);
let simT = 0, speed = 1, tilt = 25, yaw = 0, running = false, picked = -1, left = 60, clock = null, raf = null;

function fit() {
  const w = Math.min(440, cv.parentElement.clientWidth - 28);  // software GL is slow: keep the buffer modest
  cv.width = Math.round(w); cv.height = Math.round(w * 0.62); render();
}
function camera() {
  const proj = M4.persp(0.8, cv.width / cv.height, 0.1, 100);
  const view = M4.mul(M4.move(0, 0, -17), M4.mul(M4.rotX(tilt * Math.PI / 180), M4.rotY(yaw)));
  return M4.mul(proj, view);
}
function render() {
  const vp = camera(), dark = document.body.classList.contains('dark') || STARS;
  G.clear(dark ? [0.02, 0.03, 0.09] : hexRgb(cssVar('--tint')));
  G.draw(ball, M4.size(1.1), vp, [1, 0.8, 0.25], 1);
  PLANETS.forEach(([i, r, size, colour], k) => {
    G.draw(orbit, M4.size(r), vp, dark ? [0.4, 0.45, 0.6] : [0.55, 0.6, 0.7], 1);
    const a = simT * 2 * Math.PI / Math.pow(r, 1.5) + k;
    const model = M4.mul(M4.move(r * Math.cos(a), 0, r * Math.sin(a)), M4.size(size * (k === picked ? 1.35 : 1)));
    G.draw(ball, model, vp, hexRgb(colour), k === picked ? 0.45 : 0);
  });
}
// 30 frames a second is plenty for orbits, and halves the work of software-rendered WebGL
function frame() { if (!running) return; simT += speed / 30; render(); raf = setTimeout(frame, 33); }
function setRunning(on) {
  running = on; clearTimeout(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (simT > 0 ? T.resume : T.start);
  if (on) raf = setTimeout(frame, 33);
}
function pick(k) {
  picked = k;
  const [i, , , , au, days] = PLANETS[k];
  $('info').textContent = T.planets[i] + ': ' + au + ' ' + T.au + ', ' + T.year + ' ' + days + ' ' + T.days;
  render(); kit.beep(700);
}
function turn(by) { yaw += by; render(); }
function bindSlider(id, apply) { on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); render(); }); }
bindSlider('speed', (x) => { speed = x; });
bindSlider('tilt', (x) => { tilt = x; });
on('run', 'click', () => setRunning(!running));
on('turn-left', 'click', () => turn(-Math.PI / 8));
on('turn-right', 'click', () => turn(Math.PI / 8));
on('tour', 'click', () => {  // a timed tour: the countdown runs, the system stops when it reaches zero
  clearInterval(clock); left = 60; $('time').textContent = left; $('info').textContent = T.tour + ' …'; setRunning(true);
  clock = setInterval(() => {
    left -= 1; $('time').textContent = left;
    if (left <= 0) { clearInterval(clock); setRunning(false); $('info').textContent = T.tour_end; }
  }, 1000);
});
onTap(cv, () => pick((picked + 1) % PLANETS.length));
onKeys((e) => {
  const k = {ArrowLeft: -1, ArrowRight: 1}[e.code];
  if (k) { e.preventDefault(); turn(k * Math.PI / 16); }
  else if (e.code === 'ArrowUp' || e.code === 'ArrowDown') { e.preventDefault(); tilt = Math.max(5, Math.min(80, tilt + (e.code === 'ArrowUp' ? 5 : -5))); render(); }
});
kit.redraw = render;
window.addEventListener('resize', fit);
fit();
