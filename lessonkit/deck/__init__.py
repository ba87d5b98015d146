"""The classroom deck (`build.py slides`): a built lesson page read in Chromium in projector mode, screen by screen
(browser.py, extract.js), printed as 16:9 slides (one page a screen) and written as an editable PowerPoint file
(pptx.py). Used by commands/slides.py only; imports support only, and takes the figures' PNG pictures from the
build's report (draw/raster.py draws them with the SVGs)."""
