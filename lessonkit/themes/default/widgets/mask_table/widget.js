// Attention mask table: switch encoder/decoder, pick the current row by mouse or ↑ ↓ Home End.
lessonkit.widget('mask_table', function (el, d) {
  var all = lessonkit.all, one = lessonkit.one, fill = lessonkit.fill;
  var mode = d.initial_mode, row = 0;
  var modeBtns = all('.mode-btn', el), rowBtns = all('.mask-live .row-btn', el);
  var rows = all('.mask-live tbody tr', el), cells = all('.mask-live td[data-row]', el);
  var status = one('.status', el), label = one('[data-role="mode-label"]', el);
  var words = status.dataset;  // the template's words: visible, masked, none, cell, format

  function current() {
    for (var k = 0; k < d.modes.length; k++) if (d.modes[k].key === mode) return d.modes[k];
    return d.modes[0];
  }
  function mark(x, on) {
    if (on) x.setAttribute('aria-current', 'true'); else x.removeAttribute('aria-current');
  }
  function render() {
    var m = current(), seen = [];
    mode = m.key;
    modeBtns.forEach(function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-mode') === mode)); });
    cells.forEach(function (c) {
      var i = +c.getAttribute('data-row'), j = +c.getAttribute('data-col');
      var v = !!m.visible[i][j], w = v ? words.visible : words.masked;
      c.className = 'cell ' + (v ? 'is-visible' : 'is-masked');
      c.setAttribute('aria-label', fill(words.cell, {row: d.rows[i], col: d.cols[j], state: w}));
      c.firstChild.textContent = v ? '✓' : '✕';
      c.lastChild.textContent = w;
    });
    rows.forEach(function (r, i) { mark(r, i === row); r.classList.toggle('is-current', i === row); });
    rowBtns.forEach(function (b, i) { mark(b, i === row); b.tabIndex = i === row ? 0 : -1; });
    d.cols.forEach(function (t, j) { if (m.visible[row][j]) seen.push(t); });
    if (label) label.textContent = m.label;
    all('.print-only[data-mode]', el).forEach(function (t) {
      t.classList.toggle('is-dup', t.getAttribute('data-mode') === mode);
    });
    el.setAttribute('data-mode', mode);
    el.setAttribute('data-row', String(row));
    status.textContent = fill(words.format, {mode: m.label, n: row + 1, row: d.rows[row], seen: seen.join(' ') || words.none});
  }
  modeBtns.forEach(function (b) {
    b.addEventListener('click', function () { mode = b.getAttribute('data-mode'); render(); });
  });
  rowBtns.forEach(function (b, i) {
    b.addEventListener('click', function () { row = i; render(); });
    b.addEventListener('keydown', function (e) {
      var last = rowBtns.length - 1, k = e.key;
      var n = k === 'ArrowDown' ? i + 1 : k === 'ArrowUp' ? i - 1 : k === 'Home' ? 0 : k === 'End' ? last : null;
      if (n === null) return;
      e.preventDefault();
      row = Math.max(0, Math.min(last, n));
      render();
      rowBtns[row].focus();
    });
  });
  render();
});
