/* XDP program redirecting to an ifindex that does not exist: generic XDP drops with reason XDP. */
static long (*bpf_redirect)(unsigned int ifindex, unsigned long long flags) = (void *)23;
__attribute__((section("xdp"), used)) int redirect_bad(void *ctx) { return bpf_redirect(9999, 0); }
char _license[] __attribute__((section("license"), used)) = "GPL";
