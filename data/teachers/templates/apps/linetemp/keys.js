onKeys((e) => {  // left / right: month, up / down: city
  if (e.code === 'ArrowLeft') { e.preventDefault(); move(-1); }
  else if (e.code === 'ArrowRight') { e.preventDefault(); move(1); }
  else if (e.code === 'ArrowUp' || e.code === 'ArrowDown') {
    e.preventDefault();
    const k = (NAMES.indexOf(city) + (e.code === 'ArrowUp' ? -1 : 1) + NAMES.length) % NAMES.length;
    city = NAMES[k]; $('city').value = city; update();
  }
});
