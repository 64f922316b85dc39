#!/bin/bash
# The receiver holds 1000 unread bytes; 1000 more bytes start 100 bytes before the
# right edge of its window (6.17+: before, TCP_ZEROWINDOW/OVERWINDOW-style handling).
REASON=TCP_INVALID_END_SEQUENCE FUNCTION=tcp_validate_incoming
CAUSE="overruns the receive window"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --send 1000 --count 3 'seg(seq=SEQ+WIN-100, data=b"x"*1000)'
