"""Load: content/ read and checked (lesson folders, lesson.md blocks, lesson.yaml and site.yaml schemas)."""
