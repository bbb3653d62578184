const cv = $('scene'), G = glStart(cv), MOLS = @@mols@@, CPK = {H: '#e5e7eb', C: '#374151', N: '#3b82f6', O: '#ef4444'};
const RADIUS = {H: 0.25, C: 0.38, N: 0.38, O: 0.4}, VDW = {H: 0.6, C: 0.85, N: 0.8, O: 0.78};
const ball = G.sphere(14), stick = G.cylinder(10);
let mol = 0, yaw = 0.5, pitch = 0.3, zoom = 1, spinning = false, look = 'sticks', mono = false, picked = -1, raf = null;

function fit() {
  const w = Math.min(480, cv.parentElement.clientWidth - 28);  // software GL is slow: keep the buffer modest
  cv.width = Math.round(w); cv.height = Math.round(w * 0.66); render();
}
function render() {
  const proj = M4.persp(0.7, cv.width / cv.height, 0.1, 50);
  const vp = M4.mul(proj, M4.mul(M4.move(0, 0, -6 / zoom), M4.mul(M4.rotX(pitch), M4.rotY(yaw))));
  G.clear(document.body.classList.contains('dark') ? [0.04, 0.05, 0.1] : hexRgb(cssVar('--tint')));
  const m = MOLS[mol], accent = hexRgb(cssVar('--accent'));
  if (look === 'sticks') for (const [a, b] of m.bonds) G.draw(stick, M4.between(m.atoms[a].slice(1), m.atoms[b].slice(1), 0.09), vp, [0.6, 0.62, 0.68], 0);
  m.atoms.forEach(([el, x, y, z], k) => {
    const r = (look === 'sticks' ? RADIUS : VDW)[el] * (k === picked ? 1.25 : 1);
    const colour = mono ? accent : hexRgb(CPK[el]);
    G.draw(ball, M4.mul(M4.move(x, y, z), M4.size(r)), vp, colour, k === picked ? 0.5 : 0);
  });
}
function frame() { if (!spinning) return; yaw += 0.02; render(); raf = requestAnimationFrame(frame); }
function setSpin(on) {
  spinning = on; cancelAnimationFrame(raf);
  $('spin').textContent = on ? '❚❚ ' + T.stop : '⟳ ' + T.spin;
  if (on) raf = requestAnimationFrame(frame);
}
function turn(by) { yaw += by; render(); kit.beep(520); }
on('mol', 'change', (e) => { mol = +e.target.value; picked = -1; $('info').textContent = T.mols[mol]; render(); kit.beep(660); });
on('look', 'change', (e) => { look = e.target.value; render(); });
on('colours', 'change', (e) => { mono = e.target.value === 'mono'; render(); });
on('zoom', 'input', (e) => { zoom = parseFloat(e.target.value); $('zoom-out').textContent = e.target.value; render(); });
on('spin', 'click', () => setSpin(!spinning));
on('turn-left', 'click', () => turn(-Math.PI / 6));
on('turn-right', 'click', () => turn(Math.PI / 6));
on('reset', 'click', () => {  // back to the starting view: upright, unzoomed, not spinning
  yaw = 0.5; pitch = 0.3; zoom = 1; picked = -1; $('zoom').value = 1; $('zoom-out').textContent = '1';
  $('info').textContent = T.mols[mol]; setSpin(false); render();
});
onTap(cv, () => {
  const atoms = MOLS[mol].atoms; picked = (picked + 1) % atoms.length;
  const el = atoms[picked][0];
  $('info').textContent = T.mols[mol] + ' · ' + T.atom + ' ' + (picked + 1) + ': ' + el + ' (' + T.names[el] + ')';
  render(); kit.beep(880);
});
onKeys((e) => {
  const d = {ArrowLeft: [-0.2, 0], ArrowRight: [0.2, 0], ArrowUp: [0, -0.2], ArrowDown: [0, 0.2]}[e.code];
  if (d) { e.preventDefault(); yaw += d[0]; pitch += d[1]; render(); }
});
kit.redraw = render;
window.addEventListener('resize', fit);
fit();
