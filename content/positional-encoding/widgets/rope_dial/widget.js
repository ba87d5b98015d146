// rope_dial: steppers for m and n (and both at once). The arrows' coordinates and every text come from the build
// (data.q / data.k per position, data.pairs[m][n] = [offset, angle between, q·k]); this only swaps them in, and
// fills the status line's words (its data-format, from lesson.py) with those same strings.
lessonkit.widget('rope_dial', function (root, d) {
  var all = lessonkit.all, one = lessonkit.one, last = d.positions.length - 1;
  var at = {m: d.initial[0], n: d.initial[1]};
  function role(r) { return one('[data-role="' + r + '"]', root); }
  function arrow(which, a) {
    var line = role(which + '-line'), label = role(which + '-label');
    line.setAttribute('x2', a[0]);
    line.setAttribute('y2', a[1]);
    role(which + '-head').setAttribute('points', a[2]);
    label.setAttribute('x', a[3]);
    label.setAttribute('y', a[4]);
  }
  function show() {
    var p = d.pairs[at.m][at.n];
    arrow('q', d.q[at.m]);
    arrow('k', d.k[at.n]);
    role('m').textContent = d.positions[at.m];
    role('n').textContent = d.positions[at.n];
    role('q-angle').textContent = d.q_angle[at.m];
    role('k-angle').textContent = d.k_angle[at.n];
    role('offset').textContent = p[0];
    role('between').textContent = p[1];
    role('dot').textContent = p[2];
    var status = one('.rope-status', root);
    status.textContent = lessonkit.fill(status.getAttribute('data-format'),
                                        {m: d.positions[at.m], n: d.positions[at.n], offset: p[0], between: p[1], dot: p[2]});
    all('.rope-step', root).forEach(function (b) {
      var k = at[b.getAttribute('data-param')];
      b.disabled = +b.getAttribute('data-step') < 0 ? k === 0 : k === last;
    });
    all('.rope-shift', root).forEach(function (b) {
      b.disabled = +b.getAttribute('data-step') < 0 ? Math.min(at.m, at.n) === 0 : Math.max(at.m, at.n) === last;
    });
    root.setAttribute('data-state', at.m + ',' + at.n);
  }
  function keep(b) {                     // a button that just became disabled hands the focus to its partner
    if (!b.disabled) return;
    var other = one('button[data-step="' + (-b.getAttribute('data-step')) + '"]', b.parentNode);
    if (other && !other.disabled) other.focus();
  }
  all('.rope-step', root).forEach(function (b) {
    b.addEventListener('click', function () {
      var which = b.getAttribute('data-param');
      at[which] = Math.max(0, Math.min(last, at[which] + (+b.getAttribute('data-step'))));
      show();
      keep(b);
    });
  });
  all('.rope-shift', root).forEach(function (b) {
    b.addEventListener('click', function () {
      var s = +b.getAttribute('data-step');
      if (Math.min(at.m, at.n) + s < 0 || Math.max(at.m, at.n) + s > last) return;
      at.m += s;
      at.n += s;
      show();
      keep(b);
    });
  });
  show();
});
