#!/usr/bin/env bash
# The documentation's own rules, as a test (ctest `layout.docs`), over README.md and docs/*.md:
#  - every relative link points at a file that exists, and a link to a heading (#anchor) at a
#    heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces as -);
#  - no line is over 100 characters, except in tables and fenced code blocks;
#  - README.md stays under 220 lines: it is read once, then come back to for one command.
# Usage: check-docs.sh [SOURCE_DIR]   (exit 0: clean; 1: each offence is printed)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

readme_lines_max=219
line_chars_max=100
bad=0
files=(README.md docs/*.md)

# The anchors of a Markdown file's headings, one a line.
anchors() {
  awk '/^```/ { code = !code; next } !code && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
    tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}

for file in "${files[@]}"; do
  if [[ ! -f $file ]]; then
    echo "$file: missing"
    bad=1
    continue
  fi
  dir=$(dirname "$file")
  # Long lines outside tables and fenced code.
  while IFS= read -r hit; do
    echo "$file:$hit"
    bad=1
  done < <(awk -v max="$line_chars_max" '
    /^```/ { code = !code; next }
    !code && !/^\|/ && length($0) > max { print NR ": " length($0) " characters (at most " max ")" }
  ' "$file")
  # Links: [text](target) outside fenced code; external ones are not ours to check.
  while IFS=$'\t' read -r line target; do
    case $target in
      http://* | https://* | mailto:*) continue ;;
    esac
    path=${target%%#*}
    anchor=""
    [[ $target == *"#"* ]] && anchor=${target#*#}
    if [[ -z $path ]]; then
      resolved=$file
    else
      resolved=$dir/$path
    fi
    if [[ ! -e $resolved ]]; then
      echo "$file:$line: link to $target: no such file ($resolved)"
      bad=1
      continue
    fi
    if [[ -n $anchor && $resolved == *.md ]] && ! anchors "$resolved" | grep -qx -- "$anchor"; then
      echo "$file:$line: link to $target: no heading #$anchor in $resolved"
      bad=1
    fi
  done < <(awk '
    /^```/ { code = !code; next }
    !code {
      rest = $0
      while (match(rest, /\]\([^) ]+\)/)) {
        print NR "\t" substr(rest, RSTART + 2, RLENGTH - 3)
        rest = substr(rest, RSTART + RLENGTH)
      }
    }
  ' "$file")
done

readme_lines=$(wc -l < README.md)
if ((readme_lines > readme_lines_max)); then
  echo "README.md: $readme_lines lines (at most $readme_lines_max): move reference text to docs/"
  bad=1
fi

if ((bad)); then
  echo "check-docs: the documentation breaks its rules (.ci/check-docs.sh)"
  exit 1
fi
echo "check-docs: ${#files[@]} files, README.md $readme_lines lines, every link resolves"
