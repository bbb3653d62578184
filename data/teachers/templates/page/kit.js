const $ = (id) => document.getElementById(id);
const on = (id, type, fn) => { const el = $(id); if (el) el.addEventListener(type, fn); };
const onKeys = @@onkeys@@;
const onTap = (el, fn) => el.addEventListener(@@tap@@, fn);
const cssVar = (name) => getComputedStyle(document.body).getPropertyValue(name).trim();
const kit = {
  sound: true, saves: 0, board: @@board@@, redraw: null,
  beep(freq) {
    if (!kit.sound) return;
    try {
      const ac = kit.ac || (kit.ac = new (window.AudioContext || window.webkitAudioContext)());
      const osc = ac.createOscillator(), gain = ac.createGain();
      osc.frequency.value = freq || 660; gain.gain.value = 0.04;
      osc.connect(gain); gain.connect(ac.destination); osc.start(); osc.stop(ac.currentTime + 0.08);
    } catch (e) { /* no audio device: stay silent */ }
  },
  showBoard() {
    const ol = $('lb'); if (!ol) return;
    ol.innerHTML = '';
    for (const [name, pts] of kit.board.slice(0, 5)) {
      const li = document.createElement('li'); li.textContent = name + ' — ' + pts; ol.appendChild(li);
    }
  },
  record(points) {
    kit.saves += 1;
    kit.board.push([T.you + ' #' + kit.saves, points]);
    kit.board.sort((a, b) => b[1] - a[1]);
    kit.showBoard();
  },
};
on('dark', 'click', () => {
  const dark = document.body.classList.toggle('dark');
  $('dark').textContent = dark ? '☀ ' + T.light : '☾ ' + T.dark;
  if (kit.redraw) kit.redraw();
});
on('sound', 'click', () => {
  kit.sound = !kit.sound;
  $('sound').textContent = kit.sound ? '♪ ' + T.sound_on : '✕ ' + T.sound_off;
});
kit.showBoard();
