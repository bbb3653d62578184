const canvas = document.querySelector('canvas');
const ctx = canvas.getContext('2d');
canvas.width = 520; canvas.height = 360;
const settings = {len: 1.5, amp: 30, paused: false};
document.querySelectorAll('input, select').forEach((el) => el.addEventListener('input', () => { settings[el.id] = Number(el.value); }));
document.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { settings.paused = !settings.paused; }));
let t = 0;
function animate() {
  t += 1 / 60;
  const angle = 0.55 * Math.cos(2.6 * t);
  const x = 260 + Math.sin(angle) * 220, y = 30 + Math.cos(angle) * 220;
  ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, 520, 360);
  ctx.fillStyle = '#334155'; ctx.fillRect(220, 22, 80, 8);
  ctx.strokeStyle = '#334155'; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(260, 30); ctx.lineTo(x, y); ctx.stroke();
  ctx.fillStyle = '#7c3aed'; ctx.beginPath(); ctx.arc(x, y, 16, 0, Math.PI * 2); ctx.fill();
  requestAnimationFrame(animate);
}
animate();
