// shelf: one button shows the next book (but this function is never registered)
function shelf(root, data) {
  var at = 0;
  lessonkit.one('button', root).addEventListener('click', function () {
    at = (at + 1) % data.books.length;
  });
}
