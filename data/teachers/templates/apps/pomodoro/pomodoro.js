let workMin = 25, restMin = 5, phase = 'work', left = 25 * 60, total = 25 * 60, running = false, timer = null, done = 0;

function render() {
  const m = Math.floor(left / 60), s = left % 60;
  $('clock').textContent = String(m).padStart(2, '0') + ':' + String(s).padStart(2, '0');
  $('phase').textContent = phase === 'work' ? T.work : T.break;
  const share = 1 - left / total;
  if ($('arc')) $('arc').style.strokeDashoffset = String(326.7 * share);
  if ($('fill')) $('fill').style.width = (share * 100).toFixed(1) + '%';
  $('count').textContent = done;
  document.title = $('clock').textContent + ' · ' + $('phase').textContent;
}
function setPhase(p) { phase = p; total = left = (p === 'work' ? workMin : restMin) * 60; render(); }
function tick() {
  left -= 1;
  if (left <= 0) { if (phase === 'work') done += 1; kit.beep(880); setPhase(phase === 'work' ? 'break' : 'work'); }
  render();
}
function setRunning(on) {
  running = on; clearInterval(timer);
  if (on) timer = setInterval(tick, 1000);
  $('start').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (left < total ? T.resume : T.start);
}
on('work', 'input', (e) => { workMin = +e.target.value; $('work-out').textContent = workMin; if (phase === 'work' && !running) setPhase('work'); });
on('rest', 'input', (e) => { restMin = +e.target.value; $('rest-out').textContent = restMin; if (phase === 'break' && !running) setPhase('break'); });
on('start', 'click', () => setRunning(!running));
on('reset', 'click', () => { setRunning(false); setPhase('work'); setRunning(false); });
on('skip', 'click', () => { setPhase(phase === 'work' ? 'break' : 'work'); setRunning(running); });
render();
