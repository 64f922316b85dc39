#!/bin/bash
# AF_UNIX datagram pair: 4 datagrams sent, the receiver closed unread.
# Run inside the receiving namespace (the socket's netns is the only one an AF_UNIX drop has).
REASON=SOCKET_CLOSE FAMILY=unix FUNCTION=unix_release_sock
CAUSE="closed with unread"
source "$(dirname "$0")/../lib.sh"
unix_recipe close 4
