#!/bin/bash
# The decoder's floors: every #include "NAME.h" of a file in decoder/FOLDER/ names a header of FOLDER or of a
# folder after it in DECODER_DIRS (decoder/dirs.mk, top floor first), never one before it: arrows point down.
# A header name found in no folder (lib/, include/, generated files) is not a floor's and is not checked.
# Usage: tests/decoder/check_floors.sh   Exit 0 when every include looks down; 1, naming each that climbs.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEC=$ROOT/decoder
read -ra DIRS <<<"$(sed -n 's/^DECODER_DIRS := //p' "$DEC/dirs.mk")"
((${#DIRS[@]} > 1)) || { echo "check_floors: no DECODER_DIRS in $DEC/dirs.mk" >&2; exit 1; }

declare -A FLOOR=() HOME_OF=()
for i in "${!DIRS[@]}"; do
	FLOOR[${DIRS[$i]}]=$i
	for h in "$DEC/${DIRS[$i]}"/*.h; do
		[[ -e $h ]] && HOME_OF[$(basename "$h")]=${DIRS[$i]}
	done
done

files=0 includes=0 climbs=0
for dir in "${DIRS[@]}"; do
	for f in "$DEC/$dir"/*.[ch]; do
		files=$((files + 1))
		while read -r name; do
			home=${HOME_OF[$name]:-}
			[[ -n $home ]] || continue
			includes=$((includes + 1))
			if ((FLOOR[$home] < FLOOR[$dir])); then
				echo "check_floors: decoder/$dir/$(basename "$f") includes $home/$name, a floor above it"
				climbs=$((climbs + 1))
			fi
		done < <(sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "$f")
	done
done
echo "check_floors: $files files, $includes includes between floors' headers, $climbs climbing"
((climbs == 0 && includes > 0))
