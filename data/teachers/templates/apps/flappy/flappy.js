const cv = $('sky'), ctx = cv.getContext('2d');
const LW = 400, LH = 440, GAP = 130, COUNTDOWN = @@countdown@@, NIGHT = @@night@@;
let bird = {y: LH / 2, vy: 0}, pipes = [], frames = 0, score = 0, best = 0, left = COUNTDOWN;
let state = 'ready', raf = null, clock = null;

function fit() {
  const w = Math.min(400, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function reset() {
  bird = {y: LH / 2, vy: 0}; pipes = []; frames = 0; score = 0; left = COUNTDOWN; hud();
}
function hud() {
  $('score').textContent = score; best = Math.max(best, score); $('best').textContent = best;
  if (COUNTDOWN) $('time').textContent = left;
}
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  const sky = ctx.createLinearGradient(0, 0, 0, LH);
  sky.addColorStop(0, NIGHT ? '#0f172a' : cssVar('--tint')); sky.addColorStop(1, NIGHT ? '#1e3a8a' : cssVar('--panel'));
  ctx.fillStyle = sky; ctx.fillRect(0, 0, LW, LH);
  ctx.fillStyle = cssVar('--accent');
  for (const p of pipes) { ctx.fillRect(p.x, 0, 52, p.top); ctx.fillRect(p.x, p.top + GAP, 52, LH - p.top - GAP - 30); }
  ctx.fillStyle = '#a16207'; ctx.fillRect(0, LH - 30, LW, 30);
  ctx.save(); ctx.translate(90, bird.y); ctx.rotate(Math.max(-0.5, Math.min(0.9, bird.vy / 10)));
  ctx.fillStyle = '#facc15'; ctx.beginPath(); ctx.ellipse(0, 0, 17, 13, 0, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = '#111827'; ctx.beginPath(); ctx.arc(7, -4, 3, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = '#f97316'; ctx.beginPath(); ctx.moveTo(15, 0); ctx.lineTo(25, 3); ctx.lineTo(15, 6); ctx.fill();
  ctx.restore();
  ctx.fillStyle = NIGHT ? '#fff' : cssVar('--fg'); ctx.font = 'bold 34px sans-serif'; ctx.textAlign = 'center';
  ctx.fillText(String(score), LW / 2, 56);
  if (state === 'over') { ctx.font = 'bold 24px sans-serif'; ctx.fillText(T.game_over, LW / 2, LH / 2); }
}
function update() {
  frames += 1;
  bird.vy += 0.36; bird.y += bird.vy;
  if (frames % 95 === 1) pipes.push({x: LW, top: 50 + Math.floor(Math.random() * (LH - GAP - 130)), passed: false});
  for (const p of pipes) {
    p.x -= 2.2;
    if (!p.passed && p.x + 52 < 90) { p.passed = true; score += 1; kit.beep(900); hud(); }
    if (p.x < 107 && p.x + 52 > 73 && (bird.y - 12 < p.top || bird.y + 12 > p.top + GAP)) return crash();
  }
  pipes = pipes.filter((p) => p.x > -60);
  if (bird.y > LH - 42 || bird.y < 0) crash();
}
function crash() {
  state = 'over'; cancelAnimationFrame(raf); clearInterval(clock); kit.beep(180);
  $('msg').textContent = T.game_over + ' — ' + T.score + ': ' + score;
}
function frame() { if (state !== 'play') return; update(); draw(); if (state === 'play') raf = requestAnimationFrame(frame); }
function begin() {
  cancelAnimationFrame(raf); clearInterval(clock); reset(); state = 'play';
  $('msg').textContent = T.keys_tip;
  raf = requestAnimationFrame(frame);
  if (COUNTDOWN) clock = setInterval(() => { left -= 1; hud(); if (left <= 0) { crash(); $('msg').textContent = T.time_up + ' ' + T.score + ': ' + score; } }, 1000);
}
function flap() {
  if (state !== 'play') begin();
  bird.vy = -6.4; kit.beep(620);
}
on('start', 'click', begin);
on('flap', 'click', flap);
on('save', 'click', () => kit.record(score));
onTap(cv, flap);
onKeys((e) => {
  if (e.code === 'ArrowUp' || e.code === 'Space' || e.code === 'KeyW') { e.preventDefault(); flap(); }
  else if (e.code === 'ArrowDown' || e.code === 'KeyS') { e.preventDefault(); if (state === 'play') bird.vy += 3; else begin(); }
});
kit.redraw = draw;
window.addEventListener('resize', fit);
reset(); fit();
