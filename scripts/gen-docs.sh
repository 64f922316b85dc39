#!/usr/bin/env bash
# Regenerate the drop-reason reference from the catalogue
# (src/lib/catalogue_data.h): docs/reasons.md, docs/callsites.md (from
# src/lib/callsites_data.h), and the part of docs/whydrop.8
# between the "BEGIN/END GENERATED REASONS" markers (the rest of the man page
# is written by hand). `make docs` runs this; tests/unit/test_catalogue.c
# fails when the committed files differ from what the catalogue generates.
# Usage: scripts/gen-docs.sh [WHYDROP_BINARY]   (default build/whydrop)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/whydrop}
if [ ! -x "$bin" ]; then
	echo "gen-docs: $bin is not built (run make first)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" explain --all --markdown >"$tmp/reasons.md"
"$bin" explain --all --man >"$tmp/reasons.man"
"$bin" explain --callsites --markdown >"$tmp/callsites.md"

begin='.\" BEGIN GENERATED REASONS'
end='.\" END GENERATED REASONS'
if [ -f docs/whydrop.8 ] && grep -qF "$begin" docs/whydrop.8; then
	# Replace the marked region, keep everything else.
	# (awk -v would eat the backslashes of the markers: pass them by environment)
	B=$begin E=$end awk -v gen="$tmp/reasons.man" '
		index($0, ENVIRON["B"]) == 1 { while ((getline l < gen) > 0) print l; skip = 1; next }
		skip && index($0, ENVIRON["E"]) == 1 { skip = 0; next }
		!skip { print }
	' docs/whydrop.8 >"$tmp/whydrop.8"
elif [ -f docs/whydrop.8 ]; then
	# No markers yet: add the section before SEE ALSO, or at the end.
	awk -v gen="$tmp/reasons.man" '
		/^\.SH SEE ALSO/ && !done { while ((getline l < gen) > 0) print l; done = 1 }
		{ print }
		END { if (!done) while ((getline l < gen) > 0) print l }
	' docs/whydrop.8 >"$tmp/whydrop.8"
else
	echo "gen-docs: docs/whydrop.8 missing" >&2
	exit 1
fi
cp "$tmp/reasons.md" docs/reasons.md
cp "$tmp/callsites.md" docs/callsites.md
cp "$tmp/whydrop.8" docs/whydrop.8
echo "gen-docs: docs/reasons.md, docs/callsites.md and docs/whydrop.8 regenerated"
