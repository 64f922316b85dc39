#!/bin/bash
# Data ending 300000 bytes before rcv_nxt (a stale duplicate from long ago).
REASON=TCP_OLD_SEQUENCE FUNCTION=tcp_validate_incoming
CAUSE="left of the window"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --count 3 'seg(seq=SEQ-300000, data=b"x"*10)'
