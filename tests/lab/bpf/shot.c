/* tc classifier that drops everything (TC_ACT_SHOT). No headers needed. */
__attribute__((section("tc"), used)) int shot(void *skb) { return 2; }
char _license[] __attribute__((section("license"), used)) = "GPL";
