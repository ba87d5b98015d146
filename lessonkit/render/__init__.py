"""Render: Markdown and the theme's templates → page drafts."""
