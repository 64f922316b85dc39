#!/bin/bash
# The listener has a TCP-MD5 key for the client; the client sends unsigned SYNs.
REASON=TCP_MD5NOTFOUND FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="signature missing"
source "$(dirname "$0")/../lib.sh"
listener_recipe 179 'flags="S"' --md5 "secret@$AX"
