"""Features: self-check, search, glossary, figure data, dark palette, widgets — each one module with its hooks."""
