const cv = $('board'), ctx = cv.getContext('2d');
const LW = 480, LH = 320, COLS = 8, ROUNDED = @@rounded@@;
const LEVELS = {easy: {speed: 3.4, paddle: 0.26, rows: 3}, normal: {speed: 4.3, paddle: 0.2, rows: 4}, hard: {speed: 5.4, paddle: 0.15, rows: 5}};
let level = 'normal', paddle = 0, ball = {x: 0, y: 0, vx: 0, vy: 0}, bricks = [];
let score = 0, best = 0, lives = 3, running = false, served = false, over = false, raf = null;
const held = {left: false, right: false};

function fit() {
  const w = Math.min(520, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function paddleW() { return LW * LEVELS[level].paddle; }
function newGame() {
  const rows = LEVELS[level].rows;
  bricks = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < COLS; c++) bricks.push({r, c, alive: true});
  paddle = (LW - paddleW()) / 2; score = 0; lives = 3; served = false; over = false;
  hud();
}
function hud() {
  $('score').textContent = score; $('lives').textContent = lives;
  best = Math.max(best, score); $('best').textContent = best;
}
function brickRect(b) {
  const w = (LW - 20) / COLS;
  return [10 + b.c * w + 2, 30 + b.r * 20 + 2, w - 4, 16];
}
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  const hues = ['#ef4444', '#f97316', '#eab308', '#22c55e', '#3b82f6'];
  for (const b of bricks) {
    if (!b.alive) continue;
    const [x, y, w, h] = brickRect(b);
    ctx.fillStyle = hues[b.r % hues.length];
    if (ROUNDED) { ctx.beginPath(); ctx.roundRect(x, y, w, h, 6); ctx.fill(); } else ctx.fillRect(x, y, w, h);
  }
  ctx.fillStyle = cssVar('--accent');
  ctx.fillRect(paddle, LH - 18, paddleW(), 10);
  const bx = served ? ball.x : paddle + paddleW() / 2, by = served ? ball.y : LH - 26;
  ctx.fillStyle = cssVar('--fg');
  ctx.beginPath(); ctx.arc(bx, by, 6, 0, Math.PI * 2); ctx.fill();
  if (over) {
    ctx.fillStyle = 'rgba(15,23,42,.65)'; ctx.fillRect(0, LH / 2 - 26, LW, 52);
    ctx.fillStyle = '#fff'; ctx.font = 'bold 22px sans-serif'; ctx.textAlign = 'center';
    ctx.fillText(T.game_over + ' · ' + score, LW / 2, LH / 2 + 8);
  }
}
function serve() {
  if (served) return;
  const sp = LEVELS[level].speed;
  served = true;
  ball = {x: paddle + paddleW() / 2, y: LH - 26, vx: sp * 0.55, vy: -sp * 0.83};
}
function update() {
  const pw = paddleW(), sp = LEVELS[level].speed;
  if (held.left) paddle = Math.max(0, paddle - 7);
  if (held.right) paddle = Math.min(LW - pw, paddle + 7);
  if (!served) return;
  ball.x += ball.vx; ball.y += ball.vy;
  if (ball.x < 6 || ball.x > LW - 6) { ball.vx = -ball.vx; ball.x = Math.min(LW - 6, Math.max(6, ball.x)); }
  if (ball.y < 6) ball.vy = Math.abs(ball.vy);
  if (ball.vy > 0 && ball.y > LH - 24 && ball.y < LH - 10 && ball.x > paddle - 4 && ball.x < paddle + pw + 4) {
    const hit = (ball.x - (paddle + pw / 2)) / (pw / 2);
    ball.vx = sp * 0.85 * Math.max(-1, Math.min(1, hit));
    ball.vy = -Math.sqrt(sp * sp - ball.vx * ball.vx);
    kit.beep(520);
  }
  for (const b of bricks) {
    if (!b.alive) continue;
    const [x, y, w, h] = brickRect(b);
    if (ball.x > x - 5 && ball.x < x + w + 5 && ball.y > y - 5 && ball.y < y + h + 5) {
      b.alive = false; ball.vy = -ball.vy; score += 10; kit.beep(760); hud();
      if (bricks.every((k) => !k.alive)) { $('msg').textContent = T.win; newRound(); }
      break;
    }
  }
  if (ball.y > LH + 10) {
    lives -= 1; served = false; hud();
    if (lives <= 0) { over = true; stop(); $('msg').textContent = T.game_over + ' — ' + T.score + ': ' + score; kit.beep(200); }
  }
}
function newRound() { for (const b of bricks) b.alive = true; served = false; }
function frame() { if (!running) return; update(); draw(); raf = requestAnimationFrame(frame); }
function run() {
  if (over) newGame();
  if (running) return;
  running = true; $('pause').textContent = T.pause; $('msg').textContent = T.keys_tip;
  raf = requestAnimationFrame(frame);
}
function stop() { running = false; cancelAnimationFrame(raf); $('pause').textContent = T.resume; draw(); }
on('start', 'click', () => { stop(); newGame(); run(); serve(); });
on('pause', 'click', () => { if (running) { stop(); $('msg').textContent = T.paused; } else run(); });
on('level', 'change', (e) => {
  level = e.target.value; stop(); newGame(); draw();
  $('msg').textContent = T.difficulty + ': ' + e.target.options[e.target.selectedIndex].text;
});
on('save', 'click', () => kit.record(score));
onTap(cv, (e) => {  // a tap moves the paddle under the finger, and serves
  const r = cv.getBoundingClientRect();
  paddle = Math.max(0, Math.min(LW - paddleW(), (e.clientX - r.left) / r.width * LW - paddleW() / 2));
  run(); serve(); draw();
});
const DIRS = {ArrowLeft: 'left', KeyA: 'left', ArrowRight: 'right', KeyD: 'right'};
onKeys((e) => {
  if (DIRS[e.code]) { e.preventDefault(); held[DIRS[e.code]] = true; run(); }
  else if (e.code === 'Space' || e.code === 'ArrowUp') { e.preventDefault(); run(); serve(); }
});
window.addEventListener('keyup', (e) => { if (DIRS[e.code]) held[DIRS[e.code]] = false; });
kit.redraw = draw;
window.addEventListener('resize', fit);
newGame(); fit();
