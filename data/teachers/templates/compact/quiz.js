const right = @@right@@;
let score = 0;
document.querySelectorAll('.opt').forEach((b, i) => b.onclick = () => {
  if (i === right) { score++; document.getElementById('score').textContent = score; }
  document.getElementById('out').textContent = (i === right ? '@@correct@@' : '@@wrong@@') + ' ' + b.textContent;
});
