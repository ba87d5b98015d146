// Toggle: show one of the states the build rendered; the buttons say which with aria-pressed.
lessonkit.widget('toggle', function (el) {
  var all = lessonkit.all, buttons = all('.toggle-btn', el), states = all('.toggle-state', el);
  function show(k) {
    buttons.forEach(function (b, i) { b.setAttribute('aria-pressed', String(i === k)); });
    states.forEach(function (s, i) { s.classList.toggle('is-current', i === k); });
    el.setAttribute('data-state', String(k));
    if (lessonkit.refresh) lessonkit.refresh();
  }
  buttons.forEach(function (b, i) { b.addEventListener('click', function () { show(i); }); });
  show(0);
});
