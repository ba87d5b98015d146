// Glossary toggletips (the WAI / Inclusive Components toggletip pattern). The root is the page's glossary section
// (partials/glossary.html, or the site's glossary page); every mark a.term-ref in the page links to its entry
// #term-<id>. Here each mark becomes a button (role, aria-expanded) that opens, on click, tap, Enter or Space, a
// bubble with both names and the definition copied from that entry into a live region (role=status) next to it, so
// screen readers announce it; Escape, a click elsewhere or moving focus away closes it. The build wrote every word.
lessonkit.widget('term', function (root) {
  var doc = document, current = null;
  if (lessonkit.termsStarted) return;   // one root does the whole page
  lessonkit.termsStarted = true;

  function close(restoreFocus) {
    if (!current) return;
    var c = current;
    current = null;
    c.mark.setAttribute('aria-expanded', 'false');
    c.live.textContent = '';
    if (restoreFocus) c.mark.focus();
  }

  function place(bubble) {
    bubble.style.left = '';
    var r = bubble.getBoundingClientRect(), width = doc.documentElement.clientWidth, gap = 8, shift = 0;
    if (r.right > width - gap) shift = width - gap - r.right;
    if (r.left + shift < gap) shift = gap - r.left;
    if (shift) bubble.style.left = shift + 'px';
  }

  function open(c) {
    if (current && current !== c) close(false);
    current = c;
    c.mark.setAttribute('aria-expanded', 'true');
    c.live.textContent = '';
    var bubble = doc.createElement('span'), names = doc.createElement('span'), def = doc.createElement('span');
    bubble.className = 'term-bubble';
    names.className = 'term-names';
    def.className = 'term-def';
    var dt = c.entry.querySelector('dt'), dd = c.entry.querySelector('dd');
    Array.prototype.forEach.call(dt.childNodes, function (n) { names.appendChild(n.cloneNode(true)); });
    var source = dd.querySelector('.term-def') || dd;
    Array.prototype.forEach.call(source.childNodes, function (n) { def.appendChild(n.cloneNode(true)); });
    lessonkit.all('[id]', names).concat(lessonkit.all('[id]', def)).forEach(function (n) { n.removeAttribute('id'); });
    bubble.appendChild(names);
    bubble.appendChild(def);
    // filled a moment after the region is emptied, so assistive technology hears it as new
    window.setTimeout(function () {
      if (current !== c) return;
      c.live.appendChild(bubble);
      place(bubble);
    }, 50);
  }

  lessonkit.all('a.term-ref[data-term]').forEach(function (mark) {
    var entry = doc.getElementById('term-' + mark.getAttribute('data-term'));
    if (!entry || entry.contains(mark)) return;          // no entry on this page: it stays a plain link
    var wrap = doc.createElement('span'), live = doc.createElement('span');
    wrap.className = 'term';
    live.className = 'term-live';
    live.setAttribute('role', 'status');
    mark.parentNode.insertBefore(wrap, mark);
    wrap.appendChild(mark);
    wrap.appendChild(live);
    mark.setAttribute('role', 'button');
    mark.setAttribute('aria-expanded', 'false');
    var c = {mark: mark, live: live, entry: entry, wrap: wrap};
    mark.addEventListener('click', function (e) {
      e.preventDefault();
      if (current === c) close(false); else open(c);
    });
    mark.addEventListener('keydown', function (e) {
      if (e.key === ' ' || e.key === 'Spacebar') {       // a link answers Enter; a button also answers Space
        e.preventDefault();
        if (current === c) close(false); else open(c);
      }
    });
    wrap.addEventListener('focusout', function (e) {
      if (current === c && e.relatedTarget && !wrap.contains(e.relatedTarget)) close(false);
    });
  });

  doc.addEventListener('keydown', function (e) {
    if ((e.key === 'Escape' || e.key === 'Esc') && current) {
      e.preventDefault();
      close(true);
    }
  });
  doc.addEventListener('click', function (e) {
    if (current && !current.wrap.contains(e.target)) close(false);
  });
  window.addEventListener('resize', function () {
    var b = current && current.live.firstChild;
    if (b) place(b);
  });
});
