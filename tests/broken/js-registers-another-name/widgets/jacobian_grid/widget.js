// jacobian_grid: a cell is highlighted on click
lessonkit.widget('jacobian-grid', function (root) {
  lessonkit.all('li', root).forEach(function (li) {
    li.addEventListener('click', function () { li.classList.toggle('picked'); });
  });
});
