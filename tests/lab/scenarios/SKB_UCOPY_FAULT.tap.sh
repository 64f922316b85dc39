#!/bin/bash
# A tap written to from an address that is not mapped: tun_get_user has allocated the
# frame, the copy from user space faults, the write fails with EFAULT and the frame is
# freed. (The tap's socket buffer is set, so that the frame is not built after the copy.)
REASON=SKB_UCOPY_FAULT FAMILY=tap FUNCTION=tun_get_user
CAUSE="tun/tap write from unreadable memory"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
trigger() {
	local failed
	failed=$(py_b ucopy tap tap0 5)
	[ "$failed" = 5 ] || fail "$failed writes failed with EFAULT, not 5"
	expect 5
}
lab_main
