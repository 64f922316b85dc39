#!/bin/sh
# tests/lib/netns_defaults.sh: give the network namespace it runs in the kernel's own
# defaults for every sysctl the tests rely on, whatever the host has.
#   ip netns exec NS tests/lib/netns_defaults.sh     (tests/lib/harness.sh, tests/lab/lib.sh)
#   sh tests/lib/netns_defaults.sh                   (inside an `unshare -n` of a test)
# Run it right after the namespace is made, before any device but lo exists: devices made
# later copy conf/default. Exit status 0, or 1 with the keys it could not set on stderr.
#
# Why: a new namespace is not pristine. It copies from the host (init) namespace IPv4's
# conf/all and conf/default (ip_forward, rp_filter, accept_local, route_localnet, ...; all
# of IPv6's too with net.core.devconf_inherit_init_net=1), tcp_rmem and tcp_wmem, and per
# device the neighbour defaults (the lab's NEIGH_* scenarios set theirs on the device);
# and br_netfilter, once loaded, sets bridge-nf-call-* to 1 in every namespace. A Docker,
# podman or Kubernetes node has ip_forward=1 and br_netfilter.
# Not settable from a namespace, so never relied on: net.core.{r,w}mem_{default,max} (the
# host's; tests set SO_RCVBUF themselves, or SO_RCVBUFFORCE) and the congestion control
# (a namespace may only pick one of the host's tcp_allowed_congestion_control).
# Only keys that exist here are written: net.* sysctls seen from inside a namespace are
# that namespace's own (the host's read-only mirrors refuse writes), so nothing here can
# change the host.
# shellcheck shell=sh

bad=

# put KEY VALUE: a sysctl under /proc/sys/net, if this kernel has it
put() {
	f=/proc/sys/net/$1
	[ -e "$f" ] || return 0
	{ printf '%s\n' "$2" >"$f"; } 2>/dev/null || bad="$bad $1"
}

# IPv4, per device as the kernel reads them (conf/all with conf/<dev>: the larger, either
# or both, depending on the key). Forwarding first: writing it rewrites default, every
# device and all/accept_redirects.
ipv4_conf() {
	put "ipv4/conf/$1/forwarding" 0
	for k in rp_filter accept_local route_localnet drop_unicast_in_l2_multicast \
		drop_gratuitous_arp arp_ignore arp_announce arp_filter arp_accept arp_notify \
		proxy_arp proxy_arp_pvlan bc_forwarding src_valid_mark disable_policy \
		disable_xfrm ignore_routes_with_linkdown accept_source_route; do
		put "ipv4/conf/$1/$k" 0
	done
	for k in accept_redirects secure_redirects send_redirects shared_media; do
		put "ipv4/conf/$1/$k" 1
	done
}
ipv6_conf() {
	put "ipv6/conf/$1/forwarding" 0
	put "ipv6/conf/$1/force_forwarding" 0
	for k in disable_ipv6 accept_source_route drop_unicast_in_l2_multicast proxy_ndp \
		disable_policy seg6_enabled ioam6_enabled rpl_seg_enabled \
		ignore_routes_with_linkdown drop_unsolicited_na accept_untracked_na; do
		put "ipv6/conf/$1/$k" 0
	done
	put "ipv6/conf/$1/suppress_frag_ndisc" 1
	put "ipv6/conf/$1/accept_redirects" 1
	put "ipv6/conf/$1/hop_limit" 64
}

put ipv4/ip_forward 0
ipv4_conf all
ipv4_conf default
for d in $(ls /proc/sys/net/ipv4/conf); do
	case $d in all | default) ;; *) ipv4_conf "$d" ;; esac
done
ipv6_conf all
ipv6_conf default
for d in $(ls /proc/sys/net/ipv6/conf 2>/dev/null); do
	case $d in all | default) ;; *) ipv6_conf "$d" ;; esac
done

# IPv4 and TCP/UDP of this namespace (fresh namespaces get most of these from the
# kernel; the ones marked "host" are copied from the host's).
put ipv4/ip_forward_use_pmtu 0
put ipv4/ip_nonlocal_bind 0
put ipv4/ip_no_pmtu_disc 0
put ipv4/ip_default_ttl 64
put ipv4/ip_early_demux 1
put ipv4/tcp_early_demux 1
put ipv4/udp_early_demux 1
put ipv4/ip_local_port_range "32768	60999"
put ipv4/ipfrag_high_thresh 4194304
put ipv4/ipfrag_low_thresh 3145728
put ipv4/ipfrag_time 30
put ipv4/ipfrag_max_dist 64
put ipv6/ip6frag_time 60
put ipv4/icmp_echo_ignore_all 0
put ipv4/icmp_echo_ignore_broadcasts 1
put ipv4/icmp_ignore_bogus_error_responses 1
put ipv6/icmp/echo_ignore_all 0
put ipv4/fwmark_reflect 0
put ipv4/tcp_syncookies 1
put ipv4/tcp_timestamps 1
put ipv4/tcp_sack 1
put ipv4/tcp_dsack 1
put ipv4/tcp_window_scaling 1
put ipv4/tcp_fastopen 1
put ipv4/tcp_abort_on_overflow 0
put ipv4/tcp_rfc1337 0
put ipv4/tcp_fin_timeout 60
put ipv4/tcp_tw_reuse 2
put ipv4/tcp_ecn 2
put ipv4/tcp_l3mdev_accept 0
put ipv4/udp_l3mdev_accept 0
put ipv4/tcp_mtu_probing 0
put ipv4/tcp_moderate_rcvbuf 1
put ipv4/tcp_shrink_window 0
put ipv4/tcp_migrate_req 0
put ipv4/tcp_adv_win_scale 1
put ipv4/tcp_app_win 31
put ipv4/tcp_backlog_ack_defer 1
put ipv4/tcp_rmem "4096	131072	6291456"	# host
put ipv4/tcp_wmem "4096	16384	4194304"	# host
put ipv4/udp_rmem_min 4096
put ipv4/udp_wmem_min 4096
put core/somaxconn 4096
put unix/max_dgram_qlen 10
# br_netfilter: bridged frames through the IP hooks only where a test asks for it
for k in bridge-nf-call-iptables bridge-nf-call-ip6tables bridge-nf-call-arptables \
	bridge-nf-filter-vlan-tagged bridge-nf-filter-pppoe-tagged bridge-nf-pass-vlan-input-dev; do
	put "bridge/$k" 0
done

if [ -n "$bad" ]; then
	echo "netns_defaults: could not set:$bad" >&2
	exit 1
fi
exit 0
