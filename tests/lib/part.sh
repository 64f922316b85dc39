# The first lines of a real-kernel test part (tests/system, tests/integration):
# strict variables, the repository as the working directory, the assertions
# and the harness, and W, the binary under test ($1, default build/whydrop;
# a part that drives a test binary of its own reads $1 itself).
#   . "$(dirname "$0")/../lib/part.sh"
# shellcheck shell=bash
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/lib/assert.sh
. tests/lib/assert.sh
# shellcheck source=tests/lib/harness.sh
. tests/lib/harness.sh
W=${1:-build/whydrop}
