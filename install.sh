#!/usr/bin/env bash
# Install everything lessonkit needs on Debian/Ubuntu, then build the site into output/.
#   ./install.sh            system packages (fonts, Chromium, poppler, Java, LibreOffice Impress), .venv, Python packages, axe-core and
#                           the Nu HTML checker (npm), build
#   SKIP_APT=1 ./install.sh  when the system packages are already there (or you install them yourself)
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(fonts-noto-cjk poppler-utils)
APT_NO_RECOMMENDS=(chromium libreoffice-impress)   # Impress: the tests open the slides' PPTX with it

if [ "${SKIP_APT:-0}" != 1 ] && command -v apt-get >/dev/null; then
  missing=()
  for pkg in "${APT_PACKAGES[@]}" "${APT_NO_RECOMMENDS[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  command -v java >/dev/null || missing+=(default-jre-headless)  # runs the W3C Nu HTML checker in the tests
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "==> apt-get install ${missing[*]}"
    $sudo apt-get update -qq
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # matplotlib caches the font list: drop it so the new CJK font is seen
    rm -f "${XDG_CACHE_HOME:-$HOME/.cache}"/matplotlib/fontlist-*.json
  fi
fi

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
echo "==> pip install -e .[test]"
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

if command -v npm >/dev/null; then
  echo "==> npm install (axe-core and vnu-jar, for the accessibility and HTML validity tests)"
  npm install --silent --no-audit --no-fund >/dev/null
fi

echo "==> python build.py --strict"
.venv/bin/python build.py --strict   # warnings (two lessons with one `order` …) fail the install, and CI
