const c = document.getElementById('c'), g = c.getContext('2d');
const P = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]];
let a = 0, run = true;
function step() {
  if (run) a += document.getElementById('speed').value / 500;
  g.fillStyle = '#fff'; g.fillRect(0, 0, 480, 320); g.fillStyle = '@@accent@@';
  P.forEach((p) => {
    const x = p[0] * Math.cos(a) - p[2] * Math.sin(a), z = p[0] * Math.sin(a) + p[2] * Math.cos(a), s = 200 / (3 + z);
    g.beginPath(); g.arc(240 + x * s, 160 + p[1] * s, 6 + s / 10, 0, 7); g.fill();
  });
  requestAnimationFrame(step);
}
c.onclick = () => { a += 0.5; };
document.getElementById('go').onclick = (e) => { run = !run; e.target.textContent = run ? '@@pause@@' : '@@resume@@'; };
document.getElementById('speed').oninput = (e) => { document.getElementById('v').textContent = e.target.value; };
step();
