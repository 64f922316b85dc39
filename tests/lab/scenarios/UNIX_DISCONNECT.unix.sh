#!/bin/bash
# AF_UNIX datagram socket a receives 4 datagrams from b, then connect()s to c:
# the queued datagrams are flushed.
# Run inside the receiving namespace (the socket's netns is the only one an AF_UNIX drop has).
REASON=UNIX_DISCONNECT FAMILY=unix FUNCTION=skb_queue_purge_reason
CAUSE="reconnect"
source "$(dirname "$0")/../lib.sh"
unix_recipe disconnect 4
