#!/bin/bash
# Data starting 2^30 beyond rcv_nxt on an established connection.
REASON=TCP_INVALID_SEQUENCE FUNCTION=tcp_validate_incoming
CAUSE="out of window"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --count 3 'seg(seq=SEQ+2**30, data=b"x"*10)'
