const SYMBOLS = @@symbols@@;
const grid = $('grid');
let deck = [], open = [], moves = 0, pairs = 0, cursor = 0, round = 0;

function shuffle(a) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; }
SYMBOLS.concat(SYMBOLS).forEach((_, i) => {  // sixteen card buttons, dealt anew each game
  const b = document.createElement('button');
  b.type = 'button'; b.setAttribute('aria-label', T.card + ' ' + (i + 1));
  onTap(b, () => { cursor = i; flip(i); });
  grid.appendChild(b);
});
function deal() {
  deck = shuffle([...SYMBOLS, ...SYMBOLS]).map((s) => ({s, up: false, done: false}));
  open = []; moves = 0; pairs = 0; cursor = 0; round += 1;
  $('msg').textContent = T.round + ' ' + round + ' — ' + T.keys_tip;
  render();
}
function render() {
  deck.forEach((card, i) => {
    const b = grid.children[i];
    b.textContent = card.up || card.done ? card.s : '?';
    b.className = (card.done ? 'done' : card.up ? 'up' : '') + (i === cursor ? ' cursor' : '');
  });
  $('moves').textContent = moves; $('pairs').textContent = pairs;
}
function flip(i) {
  const card = deck[i];
  if (card.done || card.up) { render(); return; }
  if (open.length === 2) { for (const k of open) deck[k].up = false; open = []; }  // a third card hides the last two
  card.up = true; open.push(i);
  if (open.length === 2) {
    moves += 1;
    const [a, b] = open;
    if (deck[a].s === deck[b].s) {
      deck[a].done = deck[b].done = true; open = []; pairs += 1; kit.beep(880);
      if (pairs === SYMBOLS.length) $('msg').textContent = T.won + ' ' + moves + ' ' + T.moves.toLowerCase();
    } else setTimeout(() => { if (open.length === 2 && open[0] === a && open[1] === b) { deck[a].up = deck[b].up = false; open = []; render(); } }, 900);
  }
  render();
}
on('new', 'click', deal);
onKeys((e) => {
  const moveBy = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -4, ArrowDown: 4}[e.code];
  if (moveBy) {
    e.preventDefault();
    cursor = (cursor + moveBy + deck.length) % deck.length;
    $('msg').textContent = T.card + ' ' + (cursor + 1);
    render();
  } else if (e.code === 'Enter' || e.code === 'Space') { e.preventDefault(); flip(cursor); }
});
deal();
