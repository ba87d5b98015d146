"""A lesson's text as one syntax tree (nodes.py), read once at load by parser.py."""
