#!/usr/bin/env bash
# The layering rule of the root CMakeLists.txt, as a test (ctest `layout.layers`):
#  - a product file (anything outside a tests/ folder) includes, with "...", only headers of
#    its own top-level folder or of a folder below it;
#  - no product file includes a header from a tests/ folder.
# Layers, bottom to top; a folder may use the ones listed after the colon.
# Usage: check-layers.sh [SOURCE_DIR]   (exit 0: clean; 1: the offending lines are printed)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

declare -A may=(
  [core]="core"
  [sim]="sim core"
  [module]="module core"
  [properties]="properties sim core"
  [scenarios]="scenarios properties module sim core"
  [reports]="reports sim core"
  [cli]="cli reports scenarios properties module sim core"
  [bench]="bench cli reports scenarios properties module sim core"
)

bad=0 files=0
while IFS= read -r file; do
  files=$((files + 1))
  top=${file%%/*}
  allowed=${may[$top]:-}
  if [[ -z $allowed ]]; then
    echo "$file: its folder '$top' is not in the layer table of .ci/check-layers.sh"
    bad=1
    continue
  fi
  while IFS= read -r hit; do
    line=${hit%%:*}
    header=${hit#*:}
    header=${header#*\"}
    header=${header%%\"*}
    if [[ $header == */tests/* || $header == tests/* ]]; then
      echo "$file:$line: includes the test header \"$header\""
      bad=1
      continue
    fi
    [[ $header == */* ]] || continue  # a system-style or same-folder name: not ours to judge
    target=${header%%/*}
    if [[ ! -d $target ]]; then
      continue  # e.g. "hiredis/hiredis.h" written with quotes: not a project folder
    fi
    if [[ " $allowed " != *" $target "* ]]; then
      echo "$file:$line: '$top' may not include \"$header\" ('$target' is not below it)"
      bad=1
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
done < <(find . \( -path './.*' -o -name 'build*' -o -name out -o -name tests \) -prune -o \
              -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' \) -print |
         sed 's#^\./##' | grep '/' | sort)

if ((files == 0)); then
  echo "check-layers: no source files found under $(pwd)"
  exit 1
fi
if ((bad)); then
  echo "check-layers: upward or test-header includes found (layer order: root CMakeLists.txt)"
  exit 1
fi
echo "check-layers: $files product files, every include points down"
