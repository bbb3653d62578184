const c = document.getElementById('c'), g = c.getContext('2d');
let t = 0, run = true;
function step() {
  if (run) t += document.getElementById('speed').value / 200;
  const a = Math.sin(t) * 0.8, x = 240 + 200 * Math.sin(a), y = 40 + 200 * Math.cos(a);
  g.fillStyle = '#fff'; g.fillRect(0, 0, 480, 320);
  g.strokeStyle = '@@deep@@'; g.beginPath(); g.moveTo(240, 40); g.lineTo(x, y); g.stroke();
  g.fillStyle = '@@accent@@'; g.beginPath(); g.arc(x, y, 16, 0, 7); g.fill();
  requestAnimationFrame(step);
}
document.getElementById('go').onclick = (e) => { run = !run; e.target.textContent = run ? '@@pause@@' : '@@resume@@'; };
c.onclick = () => { t += 0.5; };
document.getElementById('reset').onclick = () => { t = 0; };
document.getElementById('speed').oninput = (e) => { document.getElementById('v').textContent = e.target.value; };
step();
