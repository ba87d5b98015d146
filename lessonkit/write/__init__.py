"""Write: the site into a temporary folder, swapped in."""
