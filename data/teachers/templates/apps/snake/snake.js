const cv = $('board'), ctx = cv.getContext('2d');
const N = 18, TICK = 140, COUNTDOWN = @@countdown@@, LOOK = '@@look@@';
let cell = 20, snake = [], dir = {x: 1, y: 0}, queue = [], food = {x: 0, y: 0};
let score = 0, left = COUNTDOWN, running = false, over = false, loop = null, clock = null;

function fit() {
  const w = Math.min(432, cv.parentElement.clientWidth - 28);
  cell = Math.max(12, Math.floor(w / N));
  cv.width = cv.height = cell * N;
  draw();
}
function newGame() {
  snake = [{x: 6, y: 9}, {x: 5, y: 9}, {x: 4, y: 9}];
  dir = {x: 1, y: 0}; queue = []; score = 0; left = COUNTDOWN; over = false;
  placeFood(); hud();
}
function placeFood() {
  do { food = {x: Math.floor(Math.random() * N), y: Math.floor(Math.random() * N)}; }
  while (snake.some((p) => p.x === food.x && p.y === food.y));
}
function hud() {
  $('score').textContent = score;
  if (COUNTDOWN) $('time').textContent = left;
}
function draw() {
  const bg = cssVar('--panel'), line = cssVar('--line'), body = cssVar('--accent'), head = cssVar('--deep');
  ctx.fillStyle = LOOK === 'neon' ? '#0f172a' : bg;
  ctx.fillRect(0, 0, cv.width, cv.height);
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    if (LOOK === 'grid') { ctx.strokeStyle = line; ctx.strokeRect(i * cell + .5, j * cell + .5, cell - 1, cell - 1); }
    else if (LOOK === 'dots' && (i + j) % 2) { ctx.fillStyle = line; ctx.fillRect(i * cell, j * cell, cell, cell); }
  }
  ctx.fillStyle = '#e11d48';
  ctx.beginPath(); ctx.arc(food.x * cell + cell / 2, food.y * cell + cell / 2, cell * .38, 0, Math.PI * 2); ctx.fill();
  snake.forEach((p, k) => {
    ctx.fillStyle = k ? (LOOK === 'neon' ? '#4ade80' : body) : (LOOK === 'neon' ? '#bbf7d0' : head);
    if (LOOK === 'dots') { ctx.beginPath(); ctx.arc(p.x * cell + cell / 2, p.y * cell + cell / 2, cell * .45, 0, Math.PI * 2); ctx.fill(); }
    else ctx.fillRect(p.x * cell + 1, p.y * cell + 1, cell - 2, cell - 2);
  });
  if (over) {
    ctx.fillStyle = 'rgba(15,23,42,.6)'; ctx.fillRect(0, cv.height / 2 - 30, cv.width, 60);
    ctx.fillStyle = '#fff'; ctx.font = 'bold 22px sans-serif'; ctx.textAlign = 'center';
    ctx.fillText(T.game_over + ' · ' + score, cv.width / 2, cv.height / 2 + 8);
  }
}
function step() {
  if (queue.length) dir = queue.shift();
  const head = {x: (snake[0].x + dir.x + N) % N, y: (snake[0].y + dir.y + N) % N};
  if (snake.some((p) => p.x === head.x && p.y === head.y)) return finish(T.game_over);
  snake.unshift(head);
  if (head.x === food.x && head.y === food.y) { score += 1; kit.beep(880); placeFood(); }
  else snake.pop();
  hud(); draw();
}
function tick() {
  left -= 1; hud();
  if (left <= 0) finish(T.time_up);
}
function labels() {
  $('pause').textContent = running ? T.pause : T.resume;
  $('start').textContent = running || over ? T.restart : T.start;
}
function play() {
  if (over) newGame();
  if (running) return;
  running = true;
  loop = setInterval(step, TICK);
  if (COUNTDOWN) clock = setInterval(tick, 1000);
  $('msg').textContent = T.keys_tip; labels();
}
function halt(message) {
  running = false; clearInterval(loop); clearInterval(clock);
  if (message) $('msg').textContent = message;
  labels();
}
function finish(message) {
  over = true; halt(message + ' — ' + T.score + ': ' + score); draw(); kit.beep(220);
}
function turn(x, y) {
  const last = queue.length ? queue[queue.length - 1] : dir;
  if (!(x === -last.x && y === -last.y) && !(x === last.x && y === last.y) && queue.length < 3) queue.push({x, y});
  if (!running) play();
}
on('start', 'click', () => { halt(); newGame(); draw(); play(); });
on('pause', 'click', () => { if (running) halt(T.paused); else play(); });
on('save', 'click', () => kit.record(score));
onTap(cv, (e) => {  // steer towards the tapped square
  const r = cv.getBoundingClientRect();
  const dx = (e.clientX - r.left) / r.width * N - (snake[0].x + .5), dy = (e.clientY - r.top) / r.height * N - (snake[0].y + .5);
  if (Math.abs(dx) > Math.abs(dy)) turn(Math.sign(dx), 0); else turn(0, Math.sign(dy));
});
const KEYS = {ArrowUp: [0, -1], KeyW: [0, -1], ArrowDown: [0, 1], KeyS: [0, 1], ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0]};
onKeys((e) => {
  if (KEYS[e.code]) { e.preventDefault(); turn(...KEYS[e.code]); }
  else if (e.code === 'Space') { e.preventDefault(); if (running) halt(T.paused); else play(); }
});
kit.redraw = draw;
window.addEventListener('resize', fit);
newGame(); fit();
