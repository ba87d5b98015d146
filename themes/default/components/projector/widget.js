// Projector: one screen at a time in large type. Parts = header, question, sections, challenges; each part's children
// are measured and dealt into screens that fit. Hash #present-<part>-<n>. Screen-only CSS: print ignores it.
lessonkit.widget('projector', function (root) {
  'use strict';
  var doc = document, html = doc.documentElement, win = window, L = root.closest('.lesson');
  var words = root.dataset;  // the template's words (theme i18n): prev, next, exit, continued, count, question
  if (!L || html.hasAttribute('data-projector')) return;
  html.setAttribute('data-projector', '');
  function all(s, el) { return [].slice.call((el || doc).querySelectorAll(s)); }
  function kids(el) { return [].slice.call(el.children); }
  function txt(el, d) { return el ? el.textContent.replace(/\s+/g, ' ').trim() : d; }
  function box(el) { return el.getBoundingClientRect(); }

  var parts = [], blocks = [], keys = {};
  function part(key, el, bs, focus, title) {
    if (!bs.length) return;
    while (keys[key]) key += '~';
    keys[key] = 1;
    el.classList.add('pj-box');
    bs.forEach(function (b) { b.classList.add('pj-block'); blocks.push(b); });
    parts.push({key: key, box: el, blocks: bs, focus: focus, title: title});
  }
  var head = L.querySelector('.lesson-header'), q = head && head.querySelector(':scope>.question-box');
  if (head) part('objectives', head, kids(head).filter(function (c) { return c !== q; }), head, txt(head.querySelector('h1'), ''));
  if (q) part('question', head, [q], q, txt(q.querySelector('h2'), words.question || ''));
  all(':scope>section.lesson-section, :scope>section.challenges', L).forEach(function (s) {
    part(s.id, s, kids(s), s, txt(s.querySelector('h2'), ''));
  });
  if (!parts.length) return;

  var toggle = root.querySelector('.pj-toggle'), bar = doc.createElement('div');
  bar.className = 'pj-bar';
  bar.innerHTML = '<span class="pj-title"></span><button type="button" class="pj-step" aria-keyshortcuts="ArrowLeft PageUp"></button>' +
    '<span class="pj-count"><span aria-hidden="true"></span><span class="vh"></span></span>' +
    '<button type="button" class="pj-step" aria-keyshortcuts="ArrowRight PageDown Space"></button><span class="pj-esc" aria-hidden="true"></span>';
  root.appendChild(bar);
  var title = bar.firstChild, steps = all('.pj-step', bar), count = all('.pj-count span', bar);
  steps[0].textContent = words.prev || '‹';
  steps[1].textContent = words.next || '›';
  bar.lastChild.textContent = words.exit || 'Esc';
  toggle.setAttribute('aria-keyshortcuts', 'P');

  var screens = [], cur = 0, on = false, sizes = new Map(), timer = 0;
  var watch = win.ResizeObserver && new ResizeObserver(function (es) {
    var grown = es.map(function (e) { return e.target; }).filter(function (b) {
      return Math.abs(box(b).height - sizes.get(b)) > 2;
    })[0];
    if (on && grown && !timer) timer = requestAnimationFrame(function () { timer = 0; if (on) redo(grown); });
  });

  // lay every block out as on a projector, shorten or shrink what cannot fit, deal each part's blocks into screens
  function layout() {
    html.classList.add('lk-measure');
    blocks.forEach(function (b) { b.style.removeProperty('--pj-zoom'); b.style.removeProperty('--pj-svg'); });
    var main = L.closest('main') || doc.body;
    var room = innerHeight - box(root).height - parseFloat(getComputedStyle(main).paddingTop) - 8;
    blocks.forEach(function (b) {
      var h = box(b).height, svg = all('.figure-svg svg', b).map(box).sort(function (x, y) { return y.height - x.height; })[0];
      if (h > room && svg && svg.height - (h - room) > room * 0.3) {
        b.style.setProperty('--pj-svg', Math.floor(svg.height - (h - room)) + 'px');
        h = box(b).height;
      }
      if (h > room) b.style.setProperty('--pj-zoom', Math.max(0.5, Math.floor(room / h * 100) / 100));
    });
    screens = [];
    parts.forEach(function (p) {
      var bs = [], top = 0, n = 0;
      p.blocks.forEach(function (b) {
        var r = box(b), carry = [];
        if (bs.length && (r.width || r.height) && r.bottom - top > room) {
          while (bs.length > 1 && /^H\d$/.test(bs[bs.length - 1].tagName)) carry.unshift(bs.pop());
          screens.push({part: p, n: ++n, blocks: bs});
          bs = carry;
        }
        if (!bs.length) top = r.top;
        bs.push(b);
        if (carry.length) top = box(carry[0]).top;
      });
      screens.push({part: p, n: ++n, blocks: bs});
    });
    blocks.forEach(function (b) { sizes.set(b, box(b).height); });
    html.classList.remove('lk-measure');
  }
  function screenOf(el) {
    for (var i = 0; i < screens.length; i++) {
      if (screens[i].blocks.some(function (b) { return b.contains(el); })) return i;
    }
    return -1;
  }
  function setHash(h) {
    if (location.hash !== h) history.replaceState(history.state, '', h || location.pathname + location.search);
  }
  function clear() {
    all('.pj-on', L).forEach(function (e) { e.classList.remove('pj-on', 'pj-first', 'pj-last'); });
    if (watch) watch.disconnect();
  }
  function focus(p) {
    if (!p.focus.hasAttribute('tabindex')) p.focus.setAttribute('tabindex', '-1');
    p.focus.focus({preventScroll: true});
  }
  function show(i, stay) {
    cur = i = Math.max(0, Math.min(screens.length - 1, i));
    var s = screens[i], bs = s.blocks, of = screens.length;
    clear();
    s.part.box.classList.add('pj-on');
    bs.forEach(function (b) { b.classList.add('pj-on'); if (watch) watch.observe(b); });
    bs[0].classList.add('pj-first');
    bs[bs.length - 1].classList.add('pj-last');
    scrollTo(0, 0);
    title.textContent = s.part.title + (s.n > 1 ? words.continued || '' : '');
    count[0].textContent = i + 1 + ' / ' + of;
    count[1].textContent = (words.count || '{i} / {n}').replace('{i}', String(i + 1)).replace('{n}', String(of));
    steps[0].disabled = !i;
    steps[1].disabled = i === of - 1;
    root.setAttribute('data-screen', i + 1);
    setHash('#present-' + s.part.key + '-' + s.n);
    if (!stay) focus(s.part);
  }
  function redo(anchor) {
    layout();
    show(Math.max(0, screenOf(anchor || screens[cur].blocks[0])), true);
  }
  function enter(key, n) {
    var at = blocks.filter(function (b) { var r = box(b); return (r.width || r.height) && r.bottom > 1; })[0];
    if (!on) {
      on = true;
      html.classList.add('lk-projecting');
      toggle.setAttribute('aria-pressed', 'true');
      all('details.answer[open]').forEach(function (d) { d.open = false; });
    }
    layout();
    var i = screenOf(at || blocks[0]);
    screens.forEach(function (s, j) { if (s.part.key === key && (s.n <= n || s.n === 1)) i = j; });
    show(i);
    if (lessonkit.refresh) lessonkit.refresh();   // boxes that now overflow sideways become keyboard-scrollable
  }
  function leave() {
    var s = screens[cur], b = s.part.box;
    on = false;
    clear();
    html.classList.remove('lk-projecting');
    toggle.setAttribute('aria-pressed', 'false');
    setHash(b !== head ? '#' + b.id : '');
    if (b === head && s.n === 1) scrollTo(0, 0); else s.blocks[0].scrollIntoView();
    focus(s.part);
    if (lessonkit.refresh) lessonkit.refresh();
  }
  function fromHash() {
    var m = /^#present-(.+)-(\d+)$/.exec(location.hash);
    if (m) enter(decodeURIComponent(m[1]), +m[2]);
    return m;
  }

  toggle.addEventListener('click', function () { if (on) leave(); else enter(); });
  steps.forEach(function (b, j) { b.addEventListener('click', function () { show(cur + j * 2 - 1); }); });
  var TEXT = 'input, textarea, select, [contenteditable]',
    OWN = '[role=slider], [role=tab], [role=radio], [role=spinbutton], [role=listbox], [role=grid], [role=menu]';
  doc.addEventListener('keydown', function (e) {
    var k = e.key, t = e.target.closest ? e.target : html;
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || t.closest(TEXT)) return;
    var own = t.closest(OWN), press = own || t.closest('button, a[href], summary');
    var move = /^p$/i.test(k) ? 'p' : !on ? 0 : k === 'Escape' ? 'p' : k === 'PageDown' ? 1 : k === 'PageUp' ? -1 :
      own ? 0 : k === 'ArrowRight' ? 1 : k === 'ArrowLeft' ? -1 :
      press ? 0 : k === ' ' ? 1 : k === 'Home' ? -1e9 : k === 'End' ? 1e9 : 0;
    if (!move) return;
    e.preventDefault();
    if (move === 'p') { if (on) leave(); else enter(); } else show(cur + move);
  });
  addEventListener('hashchange', function () {
    if (fromHash() || !on) return;
    var t = doc.getElementById(decodeURIComponent(location.hash.slice(1))), i = t ? screenOf(t) : -1;
    show(i < 0 ? cur : i, i < 0);
  });
  addEventListener('resize', function () {
    if (on && !timer) timer = requestAnimationFrame(function () { timer = 0; if (on) redo(); });
  });
  fromHash();
});
