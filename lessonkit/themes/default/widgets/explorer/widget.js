// Explorer: the controls pick a grid point; the live panel shows that state's texts, bars and figure, all made by
// the build (data.states[id] = [summary, text, [[value text, bar %] …]]).
lessonkit.widget('explorer', function (el, d) {
  var all = lessonkit.all, one = lessonkit.one;
  var index = d.params.map(function (p) { return p.initial; });
  var status = one('.status', el), text = one('[data-role="text"]', el);
  var cells = all('.ex-live .ex-value', el), meters = all('.ex-live .ex-bar', el), figures = all('.ex-figure[data-state]', el);

  function show() {
    var id = index.join('.'), s = d.states[id];
    if (!s) return;
    cells.forEach(function (c, i) { c.textContent = s[2][i][0]; });
    meters.forEach(function (m, i) { m.value = s[2][i][1]; });
    if (text) { text.textContent = s[1]; text.hidden = !s[1]; }
    figures.forEach(function (f) { f.classList.toggle('is-current', f.getAttribute('data-state') === id); });
    all('.ex-param', el).forEach(function (box, i) {
      var p = d.params[i], k = index[i], shown = p.options[k];
      var range = one('input[type=range]', box), out = one('.ex-shown', box);
      if (range) { range.value = String(k); range.setAttribute('aria-valuetext', shown); }
      if (out) out.textContent = shown;
      all('.ex-step', box).forEach(function (b) {
        b.disabled = +b.getAttribute('data-step') < 0 ? k === 0 : k === p.options.length - 1;
      });
      all('.ex-choice', box).forEach(function (b) {
        b.setAttribute('aria-pressed', String(+b.getAttribute('data-index') === k));
      });
    });
    status.textContent = s[0];
    el.setAttribute('data-state', id);
    if (lessonkit.refresh) lessonkit.refresh();
  }
  function set(i, k) {
    index[i] = Math.max(0, Math.min(d.params[i].options.length - 1, k));
    show();
  }
  all('.ex-param', el).forEach(function (box, i) {
    var range = one('input[type=range]', box);
    if (range) range.addEventListener('input', function () { set(i, +range.value); });
    all('.ex-step', box).forEach(function (b) {
      b.addEventListener('click', function () {
        set(i, index[i] + (+b.getAttribute('data-step')));
        if (b.disabled) { var other = one('.ex-step:not([disabled])', box); if (other) other.focus(); }
      });
    });
    all('.ex-choice', box).forEach(function (b) {
      b.addEventListener('click', function () { set(i, +b.getAttribute('data-index')); });
    });
  });
  var more = one('.ex-all-toggle', el);
  if (more) more.addEventListener('click', function () {
    var open = more.getAttribute('aria-expanded') !== 'true';
    more.setAttribute('aria-expanded', String(open));
    more.parentNode.classList.toggle('is-open', open);
    if (lessonkit.refresh) lessonkit.refresh();
  });
  show();
});
