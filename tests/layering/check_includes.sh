#!/usr/bin/env bash
# The include rules of docs/architecture.md, checked on the sources (the build
# enforces them through include paths; this also catches a relative
# "../" include, which include paths cannot stop).
#   tests/layering/check_includes.sh [SOURCE_DIR]
set -uo pipefail
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2
bad=0
report() { echo "check_includes: $1"; bad=1; }
src() { find "$@" \( -name '*.cc' -o -name '*.h' \) 2>/dev/null; }
while IFS= read -r line; do report "relative include: $line"; done < <(src base hal libge parsers apps | xargs grep -Hn '#include "\.\./' )
while IFS= read -r line; do report "runtime/om include a compiler header: $line"; done < <(src libge/runtime libge/om | xargs grep -HnE '#include "(ge/compiler\.h|compiler/|passes/|memory/memory_planner|tasks/task_builder|streams/streams)' )
while IFS= read -r line; do report "hal includes a libge header: $line"; done < <(src hal | xargs grep -HnE '#include "ge/' )
while IFS= read -r line; do report "libge includes the parsers or apps: $line"; done < <(src base hal libge | xargs grep -HnE '#include "(ge_parsers/|common/app_common)' )
[ $bad -eq 0 ] && echo "check_includes: ok"
exit $bad
