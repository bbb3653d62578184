function show() { document.getElementById('out').textContent = (document.getElementById('n').value * document.getElementById('u').value).toFixed(3); }
document.getElementById('n').oninput = show;
document.getElementById('u').onchange = show;
document.getElementById('reset').onclick = () => { document.getElementById('n').value = 1; show(); };
show();
