"""The classroom deck (`build.py slides`): a built lesson page read in Chromium in projector mode, screen by screen
(browser.py, extract.js), printed as 16:9 slides (one page a screen) and written as an editable PowerPoint file
(pptx.py). Used by commands/slides.py only; imports support and the slides' size from draw/raster.py, which draws
the figures' PNG pictures with their SVGs (the deck takes them from the build's report)."""
