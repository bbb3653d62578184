const answer = @@answer@@;
const out = document.getElementById('out');
document.getElementById('word').oninput = (e) => { out.textContent = e.target.value.length + ' / ' + answer.length; };
document.getElementById('check').onclick = () => {
  const w = document.getElementById('word').value.trim().toLowerCase();
  out.textContent = w === answer ? '@@correct@@' : '@@wrong@@: ' + answer;
};
