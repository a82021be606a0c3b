/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tc classifier for the stack's fault tests (this kernel has no netem):
 * drops DROP_PERMILLE of every 1000 DG-RDMA frames (ethertype 0xF042) at
 * random, and DROP_ACK_ONLY_PERMILLE (default 0) more of the ACK-only ones
 * (flags 0). Built by the suites with `clang -O2 -target bpf
 * -DDROP_PERMILLE=10` and attached with `tc filter add dev X ingress bpf da
 * obj F.o sec classifier` (the packet starts at its Ethernet header there).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#ifndef DROP_PERMILLE
#define DROP_PERMILLE 10
#endif
#ifndef DROP_ACK_ONLY_PERMILLE
#define DROP_ACK_ONLY_PERMILLE 0
#endif

/* Ethernet header, then the DG-RDMA frame header's flags byte */
#define FLAGS_OFF (14 + 9)

static unsigned int (*bpf_get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;
static long (*bpf_skb_load_bytes)(const void *skb, unsigned int off, void *to,
				  unsigned int len) = (void *)BPF_FUNC_skb_load_bytes;

__attribute__((section("classifier"), used)) int drop_dgrdma(struct __sk_buff *skb)
{
	unsigned char flags = 1;

	if (skb->protocol != __builtin_bswap16(0xF042)) {
		return TC_ACT_OK;
	}
	if (bpf_get_prandom_u32() % 1000 < DROP_PERMILLE) {
		return TC_ACT_SHOT;
	}
	if (DROP_ACK_ONLY_PERMILLE > 0 && bpf_skb_load_bytes(skb, FLAGS_OFF, &flags, 1) == 0 &&
	    flags == 0 && bpf_get_prandom_u32() % 1000 < DROP_ACK_ONLY_PERMILLE) {
		return TC_ACT_SHOT;
	}
	return TC_ACT_OK;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
