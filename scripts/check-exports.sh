#!/bin/sh
# check-exports.sh LIB HEADER
#
# Compares the functions declared in HEADER (every `moa_*(` name that is declared with MOA_API) with the
# global symbols that LIB defines (`nm -D --defined-only`). Prints both differences and exits 1 if there is
# any: a declared function the library lacks, or an exported symbol the header does not declare (including
# non-moa_ symbols, which the export map should have hidden). Exits 2 on usage errors.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: $0 LIB HEADER" >&2
    exit 2
fi
lib=$1
header=$2
[ -r "$lib" ] || { echo "$0: cannot read library $lib" >&2; exit 2; }
[ -r "$header" ] || { echo "$0: cannot read header $header" >&2; exit 2; }
command -v nm >/dev/null 2>&1 || { echo "$0: nm not found" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Declared: strip comments (block and line), join everything, then take each identifier moa_* directly
# followed by "(" in a declaration that starts with MOA_API.
sed -e 's://.*$::' "$header" |
    tr '\n' ' ' |
    sed -e 's:/\*:\n/*:g' -e 's:\*/:*/\n:g' |
    grep -v '^/\*' |
    tr -d '\n' |
    tr ';' '\n' |
    grep 'MOA_API' |
    grep -o 'moa_[A-Za-z0-9_]*[[:space:]]*(' |
    sed -e 's/[[:space:]]*($//' |
    sort -u >"$tmp/declared"

# Exported: defined global symbols (any upper-case type letter; lower-case types are local).
nm -D --defined-only "$lib" |
    awk 'NF >= 3 && $2 ~ /^[A-Z]$/ { print $3 }' |
    sed -e 's/@.*$//' |
    sort -u >"$tmp/exported"

if [ ! -s "$tmp/declared" ]; then
    echo "$0: no MOA_API moa_*( declarations found in $header" >&2
    exit 2
fi

missing=$(comm -23 "$tmp/declared" "$tmp/exported")
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
status=0
if [ -n "$missing" ]; then
    echo "declared in $header but not exported by $lib:"
    echo "$missing" | sed -e 's/^/  /'
    status=1
fi
if [ -n "$extra" ]; then
    echo "exported by $lib but not declared in $header:"
    echo "$extra" | sed -e 's/^/  /'
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "check-exports: $(wc -l <"$tmp/declared" | tr -d ' ') functions, header and library agree"
fi
exit "$status"
