const canvas = document.querySelector('canvas');
const ctx = canvas.getContext('2d');
canvas.width = 560; canvas.height = 320;
const temps = @@temps@@;
let progress = 0, paused = false, city = 0;
document.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { paused = !paused; }));
document.querySelectorAll('select').forEach((s) => s.addEventListener('change', () => { city = s.selectedIndex; }));
function animate() {
  progress = (progress + 0.05) % 13;
  ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, 560, 320);
  ctx.strokeStyle = '#e2e8f0';
  for (let k = 0; k <= 5; k++) { ctx.beginPath(); ctx.moveTo(40, 30 + k * 50); ctx.lineTo(540, 30 + k * 50); ctx.stroke(); }
  ctx.strokeStyle = '#ea580c'; ctx.lineWidth = 3; ctx.beginPath();
  for (let i = 0; i < Math.min(12, Math.floor(progress) + 1); i++) {
    const x = 50 + i * 44, y = 280 - (temps[i] + 10) * 6;
    i ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
  }
  ctx.stroke(); ctx.lineWidth = 1;
  requestAnimationFrame(animate);
}
animate();
