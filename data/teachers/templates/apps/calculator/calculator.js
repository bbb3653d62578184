const TASKS = @@tasks@@;
let expr = '', degrees = true, score = 0, task = 0;
const FN = {
  sin: (x) => Math.sin(degrees ? x * Math.PI / 180 : x), cos: (x) => Math.cos(degrees ? x * Math.PI / 180 : x),
  tan: (x) => Math.tan(degrees ? x * Math.PI / 180 : x), '√': Math.sqrt, log: Math.log10,
};
// a small recursive-descent parser: no eval, so a typo can never run code
function evaluate(src) {
  const toks = src.replace(/−/g, '-').match(/\d+\.?\d*|\.\d+|sin|cos|tan|log|[√π()+\-×÷^²]/g) || [];
  let i = 0;
  const peek = () => toks[i], next = () => toks[i++];
  function primary() {
    const t = next();
    if (t === undefined) throw new Error('incomplete');
    if (/^[\d.]/.test(t)) return parseFloat(t);
    if (t === 'π') return Math.PI;
    if (t === '(') { const x = sum(); if (next() !== ')') throw new Error('missing )'); return x; }
    if (t === '-') return -power();
    if (FN[t]) return FN[t](power());
    throw new Error('unexpected ' + t);
  }
  function power() {
    let b = primary();
    while (peek() === '²') { next(); b = b * b; }
    if (peek() === '^') { next(); return Math.pow(b, power()); }
    return b;
  }
  function product() { let x = power(); while (peek() === '×' || peek() === '÷') { const op = next(), y = power(); x = op === '×' ? x * y : x / y; } return x; }
  function sum() { let x = product(); while (peek() === '+' || peek() === '-') { const op = next(), y = product(); x = op === '+' ? x + y : x - y; } return x; }
  const x = sum();
  if (i < toks.length) throw new Error('unexpected ' + toks[i]);
  return x;
}
function fmt(x) { return Number.isFinite(x) ? String(parseFloat(x.toPrecision(12))) : T.error; }
function show(final) {
  $('expr').textContent = expr || '\u00a0';
  try { const x = evaluate(expr || '0'); $('result').textContent = (final ? '' : '= ') + fmt(x); return x; }
  catch (e) { if (final) $('result').textContent = T.error; return null; }
}
function press(k) {
  if (k === 'C') expr = '';
  else if (k === '⌫') expr = expr.replace(/(sin|cos|tan|log)\($|.$/, '');
  else if (k === '=') { const x = show(true); if (x !== null) expr = fmt(x); kit.beep(700); return; }
  else if (k === 'x²') expr += '²';
  else if (['sin', 'cos', 'tan', 'log', '√'].includes(k)) expr += k + '(';
  else expr += k;
  show(false);
}
function newTask() { task = (task + 1) % TASKS.length; $('task').textContent = TASKS[task][0] + ' = ?'; $('verdict').textContent = ''; }
document.querySelectorAll('[data-key]').forEach((b) => onTap(b, () => press(b.dataset.key)));
on('angle', 'click', () => { degrees = !degrees; $('angle').textContent = degrees ? T.deg : T.rad; show(false); });
on('submit', 'click', () => {
  let x = null; try { x = evaluate(expr || '0'); } catch (e) { /* incomplete expression */ }
  if (x !== null && Math.abs(x - TASKS[task][1]) < 1e-9) { score += 1; $('score').textContent = score; $('verdict').textContent = '✔ ' + T.right; kit.beep(880); newTask(); }
  else $('verdict').textContent = '✘ ' + T.not_yet + ' ' + (x === null ? '…' : fmt(x));
});
on('skip', 'click', newTask);
on('save', 'click', () => kit.record(score));
onKeys((e) => {
  const map = {'*': '×', '/': '÷', '-': '−', Enter: '=', Backspace: '⌫', Escape: 'C'};
  const k = map[e.key] || (/^[0-9.+^()]$/.test(e.key) ? e.key : null);
  if (k) { e.preventDefault(); press(k); }
});
task = -1; newTask(); show(false);
