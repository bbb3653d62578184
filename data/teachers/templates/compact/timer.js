let left = 1500, id = null;
function show() { document.getElementById('out').textContent = String(Math.floor(left / 60)).padStart(2, '0') + ':' + String(left % 60).padStart(2, '0'); }
function tick() { left = Math.max(0, left - 1); show(); }
document.getElementById('go').onclick = () => { if (!id) { tick(); id = setInterval(tick, 1000); } };
document.getElementById('reset').onclick = () => { clearInterval(id); id = null; left = 1500; show(); };
show();
