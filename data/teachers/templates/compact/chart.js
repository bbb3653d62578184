const c = document.getElementById('c'), g = c.getContext('2d');
const names = @@names@@, base = @@values@@;
let v = base.slice();
function draw() {
  g.fillStyle = '#fff'; g.fillRect(0, 0, 480, 300);
  const m = Math.max(...v);
  v.forEach((n, i) => {
    const h = n / m * 240;
    g.fillStyle = '@@accent@@'; g.fillRect(20 + i * 92, 270 - h, 60, h);
    g.fillStyle = '#1f2937'; g.fillText(names[i], 20 + i * 92, 290);
  });
}
function next() { v = v.map((n) => Math.round(n * (0.8 + Math.random() * 0.5))); draw(); }
document.getElementById('next').onclick = next;
c.onclick = next;
document.getElementById('reset').onclick = () => { v = base.slice(); draw(); };
draw();
