/* cgroup_skb program returning 0: the packet is refused (BPF_CGROUP_EGRESS on egress). */
__attribute__((section("cgroup_skb/egress"), used)) int deny(void *skb) { return 0; }
char _license[] __attribute__((section("license"), used)) = "GPL";
