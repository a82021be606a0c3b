/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libdgrtune: reads the host settings the Ethernet transport tuning guide
 * depends on (socket buffers, NIC rings, pause and coalescing, writeback,
 * cpusets, preemption model, real-time limits, dm-crypt, CPU frequency),
 * judges them against the guide, and plans or applies the runtime fixes.
 *
 * Everything is read through a root prefix (struct dgr_tune_opts.root) so
 * that a fake /proc and /sys tree can stand in for the host. With a root
 * other than "/", NIC parameters come from ROOT/dgrdma-tune/ethtool/IFACE and
 * device-mapper tables from ROOT/dgrdma-tune/dm/NAME (formats: docs/tune.md).
 *
 * Return contract: functions returning int give 0 (or a count) on success and
 * a negative DGR_E_* code (dgrdma/wire.h) on failure, with a message in errbuf
 * (DGR_ERRBUF_SIZE bytes, may be NULL). An item that cannot be read is not an
 * error: it is reported with status DGR_TUNE_UNKNOWN and the reason.
 */
#ifndef DGRDMA_TUNE_H
#define DGRDMA_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <dgrdma/wire.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dgr_tune_status {
	DGR_TUNE_OK = 0,      /* matches the guide's recommendation */
	DGR_TUNE_FIX = 1,     /* differs from the recommendation */
	DGR_TUNE_UNKNOWN = 2, /* could not be read; current holds the reason */
	DGR_TUNE_INFO = 3,    /* reported for context, nothing to change */
};

/* The verdicts of latency-report; ANY means "no regime given". */
enum dgr_tune_regime {
	DGR_REGIME_ANY = 0,
	DGR_REGIME_HEALTHY = 1,
	DGR_REGIME_JITTER = 2,
	DGR_REGIME_THROUGHPUT = 3,
};

#define DGR_TUNE_R_HEALTHY    (1u << DGR_REGIME_HEALTHY)
#define DGR_TUNE_R_JITTER     (1u << DGR_REGIME_JITTER)
#define DGR_TUNE_R_THROUGHPUT (1u << DGR_REGIME_THROUGHPUT)

struct dgr_tune_item {
	char id[40];	      /* stable name, e.g. "net.core.rmem_max", "nic.ring.rx" */
	char subject[64];     /* interface, device or path the item is about; "" if none */
	char current[192];    /* value found, or "unknown (why)" */
	char recommended[96]; /* what the guide recommends */
	char why[192];	      /* one line naming the guide's mitigation */
	char fix[192];	      /* command or step that fixes it; "" when nothing to do */
	enum dgr_tune_status status;
	unsigned int regimes; /* DGR_TUNE_R_* mask of regimes where it matters */
	bool fix_runtime;     /* the fix works without a reboot */
};

struct dgr_tune_report {
	struct dgr_tune_item *items;
	size_t n;
	size_t cap;
};

struct dgr_tune_opts {
	const char *root;	 /* "/" for this host, or a fake root folder */
	const char *iface;	 /* interface for the NIC checks, or NULL (then reported unknown) */
	const char *output_path; /* file or folder the run writes to, or NULL */
};

/*
 * Runs every check and appends the items to report (which must be zeroed or
 * emptied by dgr_tune_report_free() first). Returns the number of items, or
 * -DGR_E_NOMEM / -DGR_E_INVAL.
 */
int dgr_tune_check(const struct dgr_tune_opts *opts, struct dgr_tune_report *report, char *errbuf);

/* Frees the items of a report and zeroes it. Safe on a zeroed report. */
void dgr_tune_report_free(struct dgr_tune_report *report);

/*
 * Whether the kernel under root (its /proc/sys/kernel/osrelease) throttles real-time tasks
 * through each CPU's fair server (Linux 6.12 on), where kernel.sched_rt_runtime_us only
 * bounds admission: 1 yes, 0 no, -1 unknown (unreadable).
 */
int dgr_tune_fair_server_kernel(const char *root);

/* The same for a kernel release string ("6.18.44-fc", uname -r): 1, 0, or -1 (not one). */
int dgr_tune_fair_server_release(const char *release);

/* Returns true when the item matters for the regime (always true for ANY). */
bool dgr_tune_item_relevant(const struct dgr_tune_item *item, enum dgr_tune_regime regime);

/* Returns "healthy", "jitter-bound", "throughput-bound" or "any". Never NULL. */
const char *dgr_tune_regime_name(enum dgr_tune_regime regime);

/* Parses a regime name (not "any"). Returns 0, or -DGR_E_INVAL. */
int dgr_tune_regime_parse(const char *name, enum dgr_tune_regime *out);

/* Returns "ok", "fix", "unknown" or "info". Never NULL. */
const char *dgr_tune_status_name(enum dgr_tune_status status);

#define DGR_TUNE_PRINT_JSON	0x1u /* JSON instead of text */
#define DGR_TUNE_PRINT_RELEVANT 0x2u /* only the items relevant to the regime */

/*
 * Prints a report as text or JSON (one print layer for both). root is
 * echoed in the output. Returns the number of items with status FIX among
 * those printed.
 */
int dgr_tune_print(FILE *out, const struct dgr_tune_report *report, const char *root,
		   enum dgr_tune_regime regime, unsigned int flags);

/* ---- apply ---- */

enum dgr_tune_profile {
	DGR_PROFILE_RX = 0,	    /* RX at a high rate, no dm-crypt */
	DGR_PROFILE_RX_DMCRYPT = 1, /* RX writing to a dm-crypt disk */
	DGR_PROFILE_TX = 2,	    /* TX path */
};

/* Returns "rx", "rx-dmcrypt" or "tx". Never NULL. */
const char *dgr_tune_profile_name(enum dgr_tune_profile profile);

/* Parses a profile name. Returns 0, or -DGR_E_INVAL. */
int dgr_tune_profile_parse(const char *name, enum dgr_tune_profile *out);

enum dgr_tune_action_kind {
	DGR_ACTION_SYSCTL = 0, /* runtime: write a /proc/sys value */
	DGR_ACTION_RING = 1,   /* runtime: set NIC ring sizes (ETHTOOL_SRINGPARAM) */
	DGR_ACTION_MANUAL = 2, /* reboot or manual step: listed, never applied */
	DGR_ACTION_PAUSE = 3,  /* runtime: pause frames off (ETHTOOL_SPAUSEPARAM) */
};

#define DGR_TUNE_ONLY_SYSCTL 0x1u
#define DGR_TUNE_ONLY_RINGS  0x2u
#define DGR_TUNE_ONLY_PAUSE  0x4u
#define DGR_TUNE_ONLY_ALL    (DGR_TUNE_ONLY_SYSCTL | DGR_TUNE_ONLY_RINGS | DGR_TUNE_ONLY_PAUSE)

struct dgr_tune_action {
	enum dgr_tune_action_kind kind;
	char target[64];   /* sysctl name ("net.core.rmem_max") or interface */
	uint64_t value;	   /* sysctl value to write */
	uint32_t rx, tx;   /* ring sizes to set; 0 = leave that ring alone */
	bool needed;	   /* false: already at the value (shown as a comment) */
	char command[192]; /* the equivalent shell command, or the manual step */
	char note[192];	   /* why, or why it is skipped / cannot be done */
};

struct dgr_tune_plan {
	enum dgr_tune_profile profile;
	struct dgr_tune_action *actions;
	size_t n;
	size_t cap;
};

/*
 * Builds the list of actions of a profile for this host: sysctls (only
 * when only & DGR_TUNE_ONLY_SYSCTL), ring sizes of opts->iface or of each
 * slave of a bond (only & DGR_TUNE_ONLY_RINGS), pause frames off on the same
 * interfaces (only & DGR_TUNE_ONLY_PAUSE), then, with DGR_TUNE_ONLY_ALL, the
 * manual and reboot steps. Reads current values to mark actions already done. Returns the number
 * of actions, or -DGR_E_NOMEM / -DGR_E_INVAL.
 */
int dgr_tune_plan_build(const struct dgr_tune_opts *opts, enum dgr_tune_profile profile,
			unsigned int only, struct dgr_tune_plan *plan, char *errbuf);

/* Frees a plan and zeroes it. Safe on a zeroed plan. */
void dgr_tune_plan_free(struct dgr_tune_plan *plan);

/*
 * Performs one runtime action (SYSCTL, RING or PAUSE) under opts->root. Returns 0,
 * -DGR_E_PERM (errbuf names the capability), -DGR_E_SYS (errbuf has the OS
 * error, e.g. an interface without ring parameters), or -DGR_E_INVAL for a
 * MANUAL action.
 */
int dgr_tune_action_apply(const struct dgr_tune_opts *opts, const struct dgr_tune_action *action,
			  char *errbuf);

/*
 * Writes the persistent sysctl file text of a plan (every SYSCTL action,
 * needed or not) into buf. Returns its length, or -DGR_E_NOSPACE.
 */
int dgr_tune_persist_text(const struct dgr_tune_plan *plan, char *buf, size_t size);

/* The persistent file, relative to the root. */
#define DGR_TUNE_PERSIST_FILE "etc/sysctl.d/90-dgrdma.conf"

/*
 * Writes ROOT/etc/sysctl.d/90-dgrdma.conf (creating etc/sysctl.d under a fake
 * root). Returns 0, -DGR_E_PERM or -DGR_E_SYS.
 */
int dgr_tune_persist_write(const struct dgr_tune_opts *opts, const struct dgr_tune_plan *plan,
			   char *errbuf);

#define DGR_TUNE_APPLY_YES     0x1u /* act; without it a dry run that changes nothing */
#define DGR_TUNE_APPLY_PERSIST 0x2u /* also write the persistent sysctl file */
#define DGR_TUNE_APPLY_JSON    0x4u /* JSON instead of text */

/*
 * Prints a plan (text or JSON, the same print layer as dgr_tune_print) and,
 * with DGR_TUNE_APPLY_YES, performs each needed runtime action and reports
 * its result; manual steps are only listed. Returns the number of actions (and
 * persistent file writes) that failed.
 */
int dgr_tune_apply_run(FILE *out, const struct dgr_tune_opts *opts,
		       const struct dgr_tune_plan *plan, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* DGRDMA_TUNE_H */
