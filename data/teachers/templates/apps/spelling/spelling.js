const WORDS = @@words@@, TILES = @@tiles@@;
let idx = 0, score = 0, shown = 1, typed = '', tried = false;

function word() { return WORDS[idx][0]; }
function slots(guess) {
  const w = word();
  $('slots').textContent = [...w].map((ch, i) => (guess[i] === ch ? ch : i < shown ? w[i] : '_')).join(' ');
  $('count').textContent = guess.length + ' / ' + w.length + ' ' + T.letters;
}
function current() { return TILES ? typed : $('answer').value.trim().toLowerCase(); }
function load() {
  const [w, definition] = WORDS[idx];
  shown = 1; typed = ''; tried = false;
  $('definition').textContent = definition + ' (' + w.length + ' ' + T.letters + ')';
  $('num').textContent = idx + 1; $('feedback').textContent = '';
  if (TILES) {
    const box = $('tiles'); box.innerHTML = '';
    [...w].map((ch, i) => [ch, (i * 7 + 3) % w.length]).sort((a, b) => a[1] - b[1]).forEach(([ch]) => {
      const b = document.createElement('button'); b.type = 'button'; b.textContent = ch;
      b.addEventListener('click', () => { if (b.classList.contains('used')) return; b.classList.add('used'); typed += ch; $('typed').textContent = typed; slots(typed); });
      box.appendChild(b);
    });
    $('typed').textContent = '';
  } else $('answer').value = '';
  slots('');
}
function check() {
  const guess = current(), w = word();
  if (guess === w) {
    if (!tried) score += 1;
    $('score').textContent = score; $('feedback').textContent = '✔ ' + T.correct + ' « ' + w + ' »'; kit.beep(880);
  } else {
    const placed = [...w].filter((ch, i) => guess[i] === ch).length;
    $('feedback').textContent = '✘ ' + T.wrong + ' — ' + placed + ' / ' + w.length + ' ' + T.placed + ' (« ' + (guess || '…') + ' »)';
    kit.beep(240);
  }
  tried = true;
}
on('answer', 'input', (e) => slots(e.target.value.trim().toLowerCase()));
on('answer', 'keydown', (e) => { if (e.key === 'Enter') check(); });
on('check', 'click', check);
on('hint', 'click', () => {
  shown = Math.min(word().length, shown + 1);
  slots(current()); $('feedback').textContent = T.starts + ' « ' + word().slice(0, shown) + ' »';
});
on('erase', 'click', () => {
  if (!typed) return;
  const last = typed.slice(-1); typed = typed.slice(0, -1);
  const used = [...$('tiles').children].reverse().find((b) => b.classList.contains('used') && b.textContent === last);
  if (used) used.classList.remove('used');
  $('typed').textContent = typed; slots(typed);
});
on('next', 'click', () => { idx = (idx + 1) % WORDS.length; load(); });
load();
