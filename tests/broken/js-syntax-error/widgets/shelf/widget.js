// shelf: one button shows the next book
lessonkit.widget('shelf', function (root, data) {
  var at = 0, items = lessonkit.all('li', root);
  lessonkit.one('button', root).addEventListener('click', function () {
    at = (at + 1) % data.books.length;
    items.forEach(function (li, i) {
      if (i === at) {
        li.classList.add('current');
      } else li.classList.remove('current');
    });
  );
});
