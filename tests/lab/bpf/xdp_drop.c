/* XDP_DROP: the kernel frees these with NOT_SPECIFIED, not XDP (a trap the lab documents). */
__attribute__((section("xdp"), used)) int drop(void *ctx) { return 1; }
char _license[] __attribute__((section("license"), used)) = "GPL";
