#!/bin/bash
# RST segments to a listening port.
REASON=TCP_RESET FUNCTION=tcp_rcv_state_process
CAUSE="RST to a listening socket"
source "$(dirname "$0")/../lib.sh"
listener_recipe 80 'flags="R"'
