const UNITS = @@units@@, LANG = document.documentElement.lang;
const nf = new Intl.NumberFormat(LANG, {maximumSignificantDigits: 6});
const history = [];

function toBase(cat, unit, x) {
  if (cat !== 'temp') return x * UNITS[cat].find((u) => u[0] === unit)[1];
  return unit === '°C' ? x : unit === '°F' ? (x - 32) * 5 / 9 : x - 273.15;  // base: °C
}
function fromBase(cat, unit, x) {
  if (cat !== 'temp') return x / UNITS[cat].find((u) => u[0] === unit)[1];
  return unit === '°C' ? x : unit === '°F' ? x * 9 / 5 + 32 : x + 273.15;
}
function setup(form) {  // one converter form: value, from, to, swap, result
  const q = (name) => form.querySelector('[id^="' + name + '"]');
  const state = {cat: form.dataset.cat};
  function fill(cat) {
    state.cat = cat; form.dataset.cat = cat;
    for (const [sel, k] of [[q('from'), 0], [q('to'), 1]]) {
      sel.innerHTML = UNITS[cat].map((u) => '<option value="' + u[0] + '">' + T.names[u[0]] + ' (' + u[0] + ')</option>').join('');
      sel.selectedIndex = k;
    }
    convert();
  }
  function convert() {
    const x = parseFloat(q('value').value), a = q('from').value, b = q('to').value;
    if (!Number.isFinite(x)) { q('out').textContent = '–'; return; }
    const y = fromBase(state.cat, b, toBase(state.cat, a, x));
    q('out').textContent = nf.format(x) + ' ' + T.names[a] + ' = ' + nf.format(y) + ' ' + T.names[b];
  }
  function remember() {
    history.unshift(q('out').textContent); history.length = Math.min(history.length, 5);
    $('history').innerHTML = history.map((h) => '<li>' + h + '</li>').join('');
  }
  q('value').addEventListener('input', convert);
  q('value').addEventListener('change', remember);
  q('from').addEventListener('change', () => { convert(); remember(); });
  q('to').addEventListener('change', () => { convert(); remember(); });
  onTap(q('swap'), () => { const a = q('from').value; q('from').value = q('to').value; q('to').value = a; convert(); remember(); });
  convert();
  return {fill, reset() { q('value').value = 1; fill(form.dataset.initial); }};
}
const forms = [...document.querySelectorAll('.conv')].map((form) => { form.dataset.initial = form.dataset.cat; return setup(form); });
document.querySelectorAll('.tab').forEach((tab) => onTap(tab, () => {
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('on', t === tab));
  forms[0].fill(tab.dataset.cat);
}));
on('cat', 'change', (e) => forms[0].fill(e.target.value));
on('reset', 'click', () => {
  forms.forEach((f) => f.reset());
  document.querySelectorAll('.tab').forEach((t, k) => t.classList.toggle('on', k === 0));
  if ($('cat')) $('cat').selectedIndex = 0;
  history.length = 0; $('history').innerHTML = '';
});
