#!/bin/bash
# AF_UNIX stream pairs: send b"a" with MSG_OOB then b"b"; a plain recv(2) skips the OOB byte.
# Run inside the receiving namespace (the socket's netns is the only one an AF_UNIX drop has).
REASON=UNIX_SKIP_OOB FAMILY=unix FUNCTION=unix_stream_read_generic
CAUSE="out-of-band"
source "$(dirname "$0")/../lib.sh"
unix_recipe oob 3
