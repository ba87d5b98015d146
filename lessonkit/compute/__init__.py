"""Compute: lesson.py run (values, widget data)."""
