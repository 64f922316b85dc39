#!/usr/bin/env bash
# Regenerate the drop-reason reference from the catalogue
# (src/lib/knowledge/catalogue_data.h): docs/reasons.md, docs/callsites.md (from
# src/lib/knowledge/callsites_data.h), and the part of docs/whydrop.8
# between the "BEGIN/END GENERATED REASONS" markers; and from the option
# table (src/cli/option_table.c; help.c, completion.c) the part between the "BEGIN/END GENERATED
# OPTIONS" markers and contrib/whydrop.bash-completion (the rest of the man
# page is written by hand). `make docs` runs this; tests/unit/test_catalogue.c
# (the catalogue's) and tests/cli/run.sh (the option table's) fail when the
# committed files differ from what they generate.
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
# From the option table (src/cli/option_table.c; help.c, completion.c): the man page's COMMANDS
# and OPTIONS, and the bash completion. tests/cli/run.sh fails when stale.
"$bin" help --man >"$tmp/options.man"
"$bin" help --bash-completion >"$tmp/whydrop.bash-completion"

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
obegin='.\" BEGIN GENERATED OPTIONS'
oend='.\" END GENERATED OPTIONS'
if ! grep -qF "$obegin" "$tmp/whydrop.8"; then
	echo "gen-docs: docs/whydrop.8 has no '$obegin' marker" >&2
	exit 1
fi
B=$obegin E=$oend awk -v gen="$tmp/options.man" '
	index($0, ENVIRON["B"]) == 1 { while ((getline l < gen) > 0) print l; skip = 1; next }
	skip && index($0, ENVIRON["E"]) == 1 { skip = 0; next }
	!skip { print }
' "$tmp/whydrop.8" >"$tmp/whydrop.8.new"
cp "$tmp/reasons.md" docs/reasons.md
cp "$tmp/callsites.md" docs/callsites.md
cp "$tmp/whydrop.8.new" docs/whydrop.8
cp "$tmp/whydrop.bash-completion" contrib/whydrop.bash-completion
echo "gen-docs: docs/reasons.md, docs/callsites.md, docs/whydrop.8 and" \
	"contrib/whydrop.bash-completion regenerated"
