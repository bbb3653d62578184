let op = '+';
function calc() {
  const a = Number(document.getElementById('a').value), b = Number(document.getElementById('b').value);
  const r = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
  document.getElementById('out').textContent = a + ' ' + op + ' ' + b + ' = ' + r;
}
document.querySelectorAll('.op').forEach((btn) => btn.onclick = () => { op = btn.textContent; calc(); });
document.getElementById('a').oninput = calc;
document.getElementById('b').oninput = calc;
calc();
