// Tabs: one panel at a time. Choosing a label shows it in every tab set of the same group on the page (an event on
// the document) and remembers it (localStorage, which pages opened from disk share too) for the next page.
lessonkit.widget('tabs', function (root, data) {
  var tabs = lessonkit.all('[role=tab]', root), panels = lessonkit.all('[role=tabpanel]', root);
  var keys = tabs.map(function (t) { return t.getAttribute('data-key'); });
  function show(key, focus) {
    var k = keys.indexOf(key);
    if (k < 0) return;
    tabs.forEach(function (t, i) { t.setAttribute('aria-selected', String(i === k)); t.tabIndex = i === k ? 0 : -1; });
    panels.forEach(function (p, i) { p.classList.toggle('is-current', i === k); });
    if (focus) tabs[k].focus();
    if (lessonkit.refresh) lessonkit.refresh();
  }
  function choose(key, focus) {
    show(key, focus);
    // storage may be off (a private window): the page still switches
    try { localStorage.setItem(data.storage, key); } catch (e) {}
    document.dispatchEvent(new CustomEvent('lessonkit-tabs', {detail: {group: data.group, key: key}}));
  }
  document.addEventListener('lessonkit-tabs', function (e) { if (e.detail.group === data.group) show(e.detail.key); });
  window.addEventListener('storage', function (e) { if (e.key === data.storage && e.newValue) show(e.newValue); });
  tabs.forEach(function (t, i) {
    t.addEventListener('click', function () { choose(keys[i]); });
    t.addEventListener('keydown', function (e) {
      var n = tabs.length, to = {ArrowRight: i + 1, ArrowLeft: i + n - 1, Home: 0, End: n - 1}[e.key];
      if (to === undefined) return;
      e.preventDefault();
      choose(keys[to % n], true);
    });
  });
  var saved = null;
  try { saved = localStorage.getItem(data.storage); } catch (e) {}
  if (saved) show(saved);
});
