// Course contents: on a phone it starts folded; while reading, the section in view is marked in the list.
lessonkit.widget('coursenav', function (el) {
  var box = lessonkit.one('details', el);
  var narrow = window.matchMedia('(max-width: 71.99rem)');
  function fold() { if (box) box.open = !narrow.matches; }
  fold();
  if (narrow.addEventListener) narrow.addEventListener('change', fold);
  var links = lessonkit.all('a[data-section]', el), byId = {};
  links.forEach(function (a) { byId[a.getAttribute('data-section')] = a; });
  if (!('IntersectionObserver' in window) || !links.length) return;
  var visible = {};
  function mark() {
    var current = null;
    lessonkit.all('main section[id]').some(function (s) {
      if (visible[s.id] && byId[s.id]) { current = s.id; return true; }
      return false;
    });
    if (!current) return;
    links.forEach(function (a) {
      if (a.getAttribute('data-section') === current) a.setAttribute('aria-current', 'location');
      else a.removeAttribute('aria-current');
    });
  }
  var seen = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) { visible[e.target.id] = e.isIntersecting; });
    mark();
  }, { rootMargin: '-10% 0px -60% 0px' });
  Object.keys(byId).forEach(function (id) {
    var s = document.getElementById(id);
    if (s) seen.observe(s);
  });
});
