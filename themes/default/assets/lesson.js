(function () {
  'use strict';
  var doc = document, html = doc.documentElement;
  html.classList.add('js');

  function all(sel, el) { return Array.prototype.slice.call((el || doc).querySelectorAll(sel)); }
  function one(sel, el) { return el.querySelector(sel); }
  function readData(el) {
    var s = doc.getElementById(el.id + '-data');
    try { return s ? JSON.parse(s.textContent) : null; } catch (e) { return null; }
  }

  // as lessonkit.numbers: 3 sig. figures, real minus, "1.23 × 10⁶" if |x| ≥ 1e6 or < 0.001
  var SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
  function minus(t) {
    if (t.charAt(0) === '-' && parseFloat(t) === 0) t = t.slice(1);
    return t.replace('-', '\u2212');
  }
  function fmt(x) {
    if (typeof x !== 'number' || !isFinite(x)) return '—';
    if (x === 0) return '0';
    var e = Math.floor(Math.log10(Math.abs(x))), m;
    if (e < -3 || e >= 6) {
      m = (x / Math.pow(10, e)).toFixed(2);
      if (/^-?10/.test(m)) { e += 1; m = (x / Math.pow(10, e)).toFixed(2); }
      return minus(m) + ' × 10' + String(e).replace(/./g, function (c) { return c === '-' ? '⁻' : SUP[c]; });
    }
    return minus(x.toFixed(Math.max(2 - e, 0)));
  }

  function maskTable(el, d) {
    var mode = d.initial_mode, row = 0;
    var modeBtns = all('.mode-btn', el), rowBtns = all('.mask-live .row-btn', el);
    var rows = all('.mask-live tbody tr', el), cells = all('.mask-live td[data-row]', el);
    var status = one('.status', el), label = one('[data-role="mode-label"]', el);

    function current() {
      for (var k = 0; k < d.modes.length; k++) if (d.modes[k].key === mode) return d.modes[k];
      return d.modes[0];
    }
    function render() {
      var m = current(), seen = [];
      mode = m.key;
      modeBtns.forEach(function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-mode') === mode)); });
      cells.forEach(function (c) {
        var i = +c.getAttribute('data-row'), j = +c.getAttribute('data-col');
        var v = !!m.visible[i][j], w = v ? '可看' : '遮住';
        c.className = 'cell ' + (v ? 'is-visible' : 'is-masked');
        c.setAttribute('aria-label', d.rows[i] + ' → ' + d.cols[j] + '：' + w);
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
      status.textContent = '当前：' + m.label + ' · 第 ' + (row + 1) + ' 行「' + d.rows[row] + '」能看见：' +
        (seen.join(' ') || '（无）');
    }
    function mark(x, on) {
      if (on) x.setAttribute('aria-current', 'true'); else x.removeAttribute('aria-current');
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
  }

  function blockStack(el, d) {
    var i = Math.max(0, d.layers.indexOf(d.initial)), last = d.layers.length - 1, CAP = 12;
    var lo = Infinity, hi = -Infinity;
    d.series.forEach(function (s) {
      s.values.forEach(function (v) { if (v > 0) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    });
    var logLo = Math.log(lo), span = Math.log(hi) - logLo || 1;
    var add = one('[data-action="add"]', el), rem = one('[data-action="remove"]', el);
    var count = one('[data-role="count"]', el), stack = one('.bs-stack', el), status = one('.status', el);
    var rows = all('.bs-row', el);

    function render() {
      var n = d.layers[i], parts = [], k, b;
      count.textContent = String(n);
      stack.textContent = '';
      for (k = 0; k < Math.min(n, CAP); k++) {
        b = doc.createElement('span'); b.className = 'blk'; stack.appendChild(b);
      }
      if (n > CAP) {
        b = doc.createElement('span'); b.className = 'blk-more'; b.textContent = '+' + (n - CAP); stack.appendChild(b);
      }
      d.series.forEach(function (s, j) {
        var v = s.values[i], t = fmt(v), r = rows[j];
        if (r) {
          one('[data-role="value"]', r).textContent = t;
          one('.bar-fill', r).style.width = (v > 0 ? 2 + 98 * (Math.log(v) - logLo) / span : 0).toFixed(1) + '%';
        }
        parts.push(s.label + ' ' + t);
      });
      rem.disabled = i === 0;
      add.disabled = i === last;
      el.setAttribute('data-layers', String(n));
      status.textContent = '当前：' + n + ' 块 · ' + parts.join(' · ');
    }
    function step(delta, btn, other) {
      i = Math.max(0, Math.min(last, i + delta));
      render();
      if (btn.disabled) other.focus();
    }
    add.addEventListener('click', function () { step(1, add, rem); });
    rem.addEventListener('click', function () { step(-1, rem, add); });
    render();
  }

  var kinds = { mask_table: maskTable, block_stack: blockStack };
  all('[data-widget]').forEach(function (el) {
    var f = kinds[el.getAttribute('data-widget')], d = readData(el);
    if (!f || !d) return;
    try { f(el, d); } catch (e) { console.error(el.id, e); }
  });

  // a box that scrolls sideways (wide formula, table or figure on a phone) must be reachable by keyboard (WCAG 2.1.1):
  // focusable exactly while it overflows, so wide screens get no extra Tab stops
  var scrollers = all('math, .table-scroll, pre, .figure-svg');
  function keyboardScroll() {
    scrollers.forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) el.setAttribute('tabindex', '0');
      else if (el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
    });
  }
  keyboardScroll();
  window.addEventListener('resize', keyboardScroll);
  doc.addEventListener('toggle', keyboardScroll, true);

})();
