#!/bin/bash
# A SYN on an established connection (same 4-tuple): challenge ACK, SYN dropped.
REASON=TCP_INVALID_SYN FUNCTION=tcp_validate_incoming
CAUSE="SYN on an established connection"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --count 3 'seg(flags="S")'
