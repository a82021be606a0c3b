// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-tune: the host settings of the Ethernet transport tuning guide.
 *   dgrdma-tune check [--if IFACE] [--regime R] [--data-path PATH] [--json] [--root DIR]
 *   dgrdma-tune apply --profile NAME [--if IFACE] [--dry-run|--yes] [--persist] ...
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tune.h"
#include "dgrdma-version.h"

enum { EXIT_FIXES = DGR_EXIT_FINDING, EXIT_USAGE = DGR_EXIT_USAGE, EXIT_ERROR = DGR_EXIT_FAILED };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: dgrdma-tune check [OPTIONS]\n"
		"       dgrdma-tune apply --profile NAME [OPTIONS]\n"
		"\n"
		"check  read every setting of the tuning guide and judge it\n"
		"  --if IFACE       interface for ring, pause and coalescing checks (a bond: each "
		"slave)\n"
		"  --regime R       healthy, jitter-bound or throughput-bound: mark what matters\n"
		"  --relevant       print only the items that matter for --regime\n"
		"  --data-path PATH also check whether PATH (where the stream is written) sits on\n"
		"                   a dm-crypt device (old name --output, an alias until 0.2)\n"
		"  --json           JSON instead of text\n"
		"  --root DIR       read /proc, /sys, /boot under DIR (a fake root for tests)\n"
		"apply  print, and with --yes run, the runtime fixes of a profile\n"
		"  --profile NAME   rx, rx-dmcrypt or tx\n"
		"  --if IFACE       interface whose ring sizes are set (a bond: each slave)\n"
		"  --only WHAT      sysctl, rings, pause or all (default all)\n"
		"  --dry-run        print the commands, change nothing (the default)\n"
		"  --yes            apply sysctls, ring sizes and pause frames (root)\n"
		"  --persist        also write /etc/sysctl.d/90-dgrdma.conf (with --yes)\n"
		"  --json           JSON instead of text\n"
		"  --root DIR       act under DIR (sysctl files and ethtool fixtures)\n"
		"  -h, --help       this text\n"
		"  --version        the version of dgrdma-tools\n"
		"\n"
		"Exit status (docs/cli.md): 0 nothing to fix (check) or all applied (apply);\n"
		"1 something to fix (check); 2 bad usage; 3 an action failed (apply) or the\n"
		"settings could not be read.\n");
}

struct cli {
	struct dgr_tune_opts opts;
	enum dgr_tune_regime regime;
	enum dgr_tune_profile profile;
	bool have_profile, json, relevant, yes, dry_run, persist;
	unsigned int only;
};

static int bad_value(const char *opt, const char *val, const char *accepted)
{
	fprintf(stderr, "dgrdma-tune: invalid %s '%s': expected %s\n", opt, val, accepted);
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, bool apply, struct cli *c)
{
	static const struct option opts[] = {
		{ "if", required_argument, NULL, 'i' },
		{ "regime", required_argument, NULL, 'r' },
		{ "relevant", no_argument, NULL, 'R' },
		{ "data-path", required_argument, NULL, 'o' },
		{ "output", required_argument, NULL, 'o' }, /* alias until 0.2 */
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'D' },
		{ "profile", required_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'O' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "yes", no_argument, NULL, 'y' },
		{ "persist", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat st;
	int ch, longindex = -1;

	while ((ch = getopt_long(argc, argv, "h", opts, &longindex)) != -1) {
		/* Options of the other command are refused by the name given. */
		if ((apply && strchr("rRo", ch)) || (!apply && strchr("pOnyP", ch))) {
			fprintf(stderr, "dgrdma-tune %s: option '--%s' belongs to '%s'\n",
				apply ? "apply" : "check",
				longindex >= 0 ? opts[longindex].name : "?",
				apply ? "check" : "apply");
			return EXIT_USAGE;
		}
		longindex = -1;
		switch (ch) {
		case 'i':
			if (!optarg[0] || strlen(optarg) > 15 || strchr(optarg, '/')) {
				return bad_value("--if", optarg,
						 "an interface name of 1..15 characters");
			}
			c->opts.iface = optarg;
			break;
		case 'r':
			if (dgr_tune_regime_parse(optarg, &c->regime) < 0) {
				return bad_value("--regime", optarg,
						 "healthy, jitter-bound or throughput-bound");
			}
			break;
		case 'R':
			c->relevant = true;
			break;
		case 'o':
			if (!optarg[0]) {
				return bad_value("--data-path", optarg, "a file or folder path");
			}
			c->opts.output_path = optarg;
			break;
		case 'j':
			c->json = true;
			break;
		case 'D':
			if (stat(optarg, &st) < 0 || !S_ISDIR(st.st_mode)) {
				return bad_value("--root", optarg, "an existing folder");
			}
			c->opts.root = optarg;
			break;
		case 'p':
			if (dgr_tune_profile_parse(optarg, &c->profile) < 0) {
				return bad_value("--profile", optarg, "rx, rx-dmcrypt or tx");
			}
			c->have_profile = true;
			break;
		case 'O':
			if (strcmp(optarg, "sysctl") == 0) {
				c->only = DGR_TUNE_ONLY_SYSCTL;
			} else if (strcmp(optarg, "rings") == 0) {
				c->only = DGR_TUNE_ONLY_RINGS;
			} else if (strcmp(optarg, "pause") == 0) {
				c->only = DGR_TUNE_ONLY_PAUSE;
			} else if (strcmp(optarg, "all") == 0) {
				c->only = DGR_TUNE_ONLY_ALL;
			} else {
				return bad_value("--only", optarg, "sysctl, rings, pause or all");
			}
			break;
		case 'n':
			c->dry_run = true;
			break;
		case 'y':
			c->yes = true;
			break;
		case 'P':
			c->persist = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			printf("dgrdma-tune (dgrdma-tools) %s\n", DGR_VERSION);
			return -1;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dgrdma-tune: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (c->relevant && c->regime == DGR_REGIME_ANY) {
		fprintf(stderr, "dgrdma-tune check: --relevant needs --regime\n");
		return EXIT_USAGE;
	}
	if (apply && !c->have_profile) {
		fprintf(stderr,
			"dgrdma-tune apply: --profile is required (rx, rx-dmcrypt or tx)\n");
		return EXIT_USAGE;
	}
	if (c->yes && c->dry_run) {
		fprintf(stderr, "dgrdma-tune apply: --yes and --dry-run exclude each other\n");
		return EXIT_USAGE;
	}
	return 0;
}

static int cmd_check(struct cli *c)
{
	struct dgr_tune_report rep = { 0 };
	char errbuf[DGR_ERRBUF_SIZE];
	unsigned int flags = 0;
	int fixes;

	if (dgr_tune_check(&c->opts, &rep, errbuf) < 0) {
		fprintf(stderr, "dgrdma-tune: %s\n", errbuf);
		dgr_tune_report_free(&rep);
		return EXIT_ERROR;
	}
	flags |= c->json ? DGR_TUNE_PRINT_JSON : 0;
	flags |= c->relevant ? DGR_TUNE_PRINT_RELEVANT : 0;
	fixes = dgr_tune_print(stdout, &rep, c->opts.root, c->regime, flags);
	dgr_tune_report_free(&rep);
	return fixes > 0 ? EXIT_FIXES : 0;
}

static int cmd_apply(struct cli *c)
{
	struct dgr_tune_plan plan = { 0 };
	char errbuf[DGR_ERRBUF_SIZE];
	unsigned int flags = 0;
	int failed;

	if (dgr_tune_plan_build(&c->opts, c->profile, c->only, &plan, errbuf) < 0) {
		fprintf(stderr, "dgrdma-tune: %s\n", errbuf);
		dgr_tune_plan_free(&plan);
		return EXIT_ERROR;
	}
	flags |= c->yes ? DGR_TUNE_APPLY_YES : 0;
	flags |= c->persist ? DGR_TUNE_APPLY_PERSIST : 0;
	flags |= c->json ? DGR_TUNE_APPLY_JSON : 0;
	failed = dgr_tune_apply_run(stdout, &c->opts, &plan, flags);
	dgr_tune_plan_free(&plan);
	return failed > 0 ? EXIT_ERROR : 0;
}

int main(int argc, char **argv)
{
	struct cli c = { .opts = { .root = "/" }, .only = DGR_TUNE_ONLY_ALL };
	bool apply;
	int rc;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("dgrdma-tune (dgrdma-tools) %s\n", DGR_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "check") == 0) {
		apply = false;
	} else if (strcmp(argv[1], "apply") == 0) {
		apply = true;
	} else {
		fprintf(stderr, "dgrdma-tune: unknown command '%s': expected check or apply\n",
			argv[1]);
		return EXIT_USAGE;
	}
	rc = parse_args(argc - 1, argv + 1, apply, &c);
	if (rc != 0) {
		return rc < 0 ? 0 : rc;
	}
	return apply ? cmd_apply(&c) : cmd_check(&c);
}
