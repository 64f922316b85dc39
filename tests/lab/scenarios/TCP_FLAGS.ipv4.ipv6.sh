#!/bin/bash
# SYN+FIN segments to a listening port.
REASON=TCP_FLAGS FUNCTION=tcp_rcv_state_process
CAUSE="flags invalid"
source "$(dirname "$0")/../lib.sh"
listener_recipe 80 'flags="SF"'
