const c = document.getElementById('c'), g = c.getContext('2d');
let x = 220, y = 0, fx = 100, score = 0, run = true;
function move(d) { x = Math.max(0, Math.min(440, x + d)); }
function step() {
  if (run) { y += 4; if (y > 300) { if (Math.abs(fx - x) < 40) { score++; document.getElementById('score').textContent = score; } y = 0; fx = Math.random() * 440; } }
  g.fillStyle = '#fff'; g.fillRect(0, 0, 480, 320);
  g.fillStyle = '@@accent@@'; g.fillRect(x, 290, 40, 20);
  g.fillStyle = '@@deep@@'; g.fillRect(fx, y, 20, 20);
  requestAnimationFrame(step);
}
c.onclick = (e) => move(e.offsetX < c.clientWidth / 2 ? -40 : 40);
document.getElementById('left').onclick = () => move(-40);
document.getElementById('right').onclick = () => move(40);
document.getElementById('go').onclick = (e) => { run = !run; e.target.textContent = run ? '@@pause@@' : '@@resume@@'; };
window.addEventListener('keydown', (e) => { if (e.key === 'ArrowLeft') move(-20); if (e.key === 'ArrowRight') move(20); });
step();
