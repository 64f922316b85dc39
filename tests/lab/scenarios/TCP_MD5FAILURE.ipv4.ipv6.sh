#!/bin/bash
# The listener has a TCP-MD5 key for the client; the SYNs carry a wrong signature.
REASON=TCP_MD5FAILURE FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="does not match the key"
source "$(dirname "$0")/../lib.sh"
listener_recipe 179 'flags="S", options=[(19, b"\x01"*16)]' --md5 "secret@$AX"
