#!/bin/bash
# The listener has no TCP-MD5 key; the client sends MD5-signed SYNs (option 19).
REASON=TCP_MD5UNEXPECTED FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="no key configured"
source "$(dirname "$0")/../lib.sh"
listener_recipe 179 'flags="S", options=[(19, b"\x01"*16)]'
