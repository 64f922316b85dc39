#!/bin/bash
# A tap left down; 5 frames written to its file descriptor (each write fails with EIO):
# the device is not up, so tun_get_user drops them.
REASON=DEV_READY FAMILY=l2 FUNCTION=tun_get_user
CAUSE="not up"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
tap_recipe down
