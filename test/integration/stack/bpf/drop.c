/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tc classifier for the stack's fault tests (this kernel has no netem):
 * drops DROP_PERMILLE of every 1000 DG-RDMA frames (ethertype 0xF042) at
 * random. Built by the suite with `clang -O2 -target bpf -DDROP_PERMILLE=10`
 * and attached with `tc filter add dev X ingress bpf da obj F.o sec classifier`.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#ifndef DROP_PERMILLE
#define DROP_PERMILLE 10
#endif

static unsigned int (*bpf_get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;

__attribute__((section("classifier"), used)) int drop_dgrdma(struct __sk_buff *skb)
{
	if (skb->protocol == __builtin_bswap16(0xF042) &&
	    bpf_get_prandom_u32() % 1000 < DROP_PERMILLE) {
		return TC_ACT_SHOT;
	}
	return TC_ACT_OK;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
