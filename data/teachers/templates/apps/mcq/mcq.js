const BANK = @@bank@@, RADIOS = @@radios@@;
let level = Object.keys(BANK)[0], idx = 0, score = 0, tried = false, picked = -1;

function questions() { return BANK[level]; }
function show() {
  const [text, answers] = questions()[idx];
  $('num').textContent = idx + 1; $('total').textContent = questions().length; $('score').textContent = score;
  $('q').textContent = text; $('feedback').textContent = ''; $('chosen').textContent = '';
  tried = false; picked = -1;
  [...$('answers').children].forEach((el, i) => {
    el.className = '';
    if (RADIOS) { el.lastChild.textContent = ' ' + answers[i]; el.firstChild.checked = false; }
    else el.textContent = String.fromCharCode(65 + i) + '. ' + answers[i];
  });
}
for (let i = 0; i < 4; i++) {  // four answer slots, refilled for every question
  if (RADIOS) {
    const label = document.createElement('label'), input = document.createElement('input');
    input.type = 'radio'; input.name = 'answer'; input.value = i;
    onTap(input, () => { picked = i; $('chosen').textContent = T.you_chose + ': ' + questions()[idx][1][i]; });
    label.append(input, document.createTextNode('')); $('answers').appendChild(label);
  } else {
    const b = document.createElement('button');
    b.type = 'button'; onTap(b, () => grade(i)); $('answers').appendChild(b);
  }
}
function grade(i) {
  const [, answers, right] = questions()[idx];
  if (i < 0) { $('feedback').textContent = T.pick; return; }
  if (!tried && i === right) score += 1;
  tried = true;
  $('score').textContent = score;
  [...$('answers').children].forEach((el, k) => { el.className = k === right ? 'right' : k === i ? 'wrong' : ''; });
  $('feedback').textContent = i === right ? '✔ ' + T.correct + ' ' + answers[right]
    : '✘ ' + T.wrong + ' — ' + T.you_chose + ' ' + answers[i] + '. ' + T.answer_is + ' ' + answers[right] + '.';
  kit.beep(i === right ? 880 : 240);
}
function next() {
  if (idx + 1 < questions().length) { idx += 1; show(); return; }
  $('feedback').textContent = T.done + ' ' + score + ' / ' + questions().length;
  idx = 0; score = 0; setTimeout(show, 1500);
}
on('check', 'click', () => grade(picked));
on('save', 'click', () => kit.record(score));
on('next', 'click', next);
on('reset', 'click', () => { idx = 0; score = 0; show(); $('feedback').textContent = '↺'; });
on('level', 'change', (e) => { level = e.target.value; idx = 0; score = 0; show(); });
show();
