"""Where the project's own folders are: the defaults for --content, --themes-dir and --out."""
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
