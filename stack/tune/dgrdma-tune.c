// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-tune: the host settings of the Ethernet transport tuning guide.
 *   dgrdma-tune check [--if IFACE] [--regime R] [--data-path PATH] [--json] [--root DIR]
 *   dgrdma-tune apply --profile NAME [--if IFACE] [--dry-run|--yes] [--persist] ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "opts.h"
#include "tune.h"
#include "dgrdma-version.h"

enum { EXIT_FIXES = DGR_EXIT_FINDING, EXIT_USAGE = DGR_EXIT_USAGE, EXIT_ERROR = DGR_EXIT_FAILED };

enum {
	OPT_IF = 0x100,
	OPT_REGIME,
	OPT_RELEVANT,
	OPT_DATA_PATH,
	OPT_JSON,
	OPT_ROOT,
	OPT_PROFILE,
	OPT_ONLY,
	OPT_DRY_RUN,
	OPT_YES,
	OPT_PERSIST,
	OPT_VERSION,
	OPT_LIST_OPTIONS,
};

/* The commands, bits of a row's subcommands. */
enum { CMD_CHECK, CMD_APPLY };
#define CHECK (1u << CMD_CHECK)
#define APPLY (1u << CMD_APPLY)

/*
 * dgrdma-tune's options: the parser, --help (the rows' text in order) and --list-options.
 * --if, --json and --root belong to both commands; their lines of apply's part of --help
 * are written with the rows before them.
 */
static const struct dgr_opt tune_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage = "Usage: dgrdma-tune check [OPTIONS]\n"
		   "       dgrdma-tune apply --profile NAME [OPTIONS]\n"
		   "\n"
		   "check  read every setting of the tuning guide and judge it\n" },
	{ .id = OPT_IF,
	  .name = "if",
	  .type = DGR_OPT_STRING,
	  .metavar = "IFACE",
	  .usage =
	      "  --if IFACE       interface for ring, pause and coalescing checks (a bond: each "
	      "slave)\n",
	  .man = "interface for the NIC checks or ring sizes; a bond means each of its slaves.\n" },
	{ .id = OPT_REGIME,
	  .name = "regime",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "R",
	  .values = "healthy|jitter-bound|throughput-bound",
	  .subcommands = CHECK,
	  .usage =
	      "  --regime R       healthy, jitter-bound or throughput-bound: mark what matters\n",
	  .man = "the verdict of latency-report: marks which items matter (\\fBrelevant\\fR) and "
		 "makes only\n"
		 "those set the exit status.\n" },
	{ .id = OPT_RELEVANT,
	  .name = "relevant",
	  .type = DGR_OPT_FLAG,
	  .subcommands = CHECK,
	  .usage = "  --relevant       print only the items that matter for --regime\n",
	  .man = "print only the items relevant to \\fB\\-\\-regime\\fR.\n" },
	{ .id = OPT_DATA_PATH,
	  .name = "data-path",
	  .aliases = { "output" }, /* until 0.2 */
	  .type = DGR_OPT_STRING,
	  .metavar = "PATH",
	  .subcommands = CHECK,
	  .usage =
	      "  --data-path PATH also check whether PATH (where the stream is written) sits on\n"
	      "                   a dm-crypt device (old name --output, an alias until 0.2)\n",
	  .man = "also check whether PATH (where the run writes its data) sits on a dm-crypt "
		 "device. The old\n"
		 "name\n"
		 ".B \\-\\-output\n"
		 "is an alias until 0.2 (in the other tools\n"
		 ".B \\-\\-output\n"
		 "is where a tool writes its results).\n" },
	{ .id = OPT_JSON,
	  .name = "json",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --json           JSON instead of text\n",
	  .man = "JSON instead of text (the same print layer).\n" },
	{ .id = OPT_ROOT,
	  .name = "root",
	  .type = DGR_OPT_STRING,
	  .metavar = "DIR",
	  .usage = "  --root DIR       read /proc, /sys, /boot under DIR (a fake root for tests)\n"
		   "apply  print, and with --yes run, the runtime fixes of a profile\n",
	  .man = "read /proc, /sys and /boot under DIR; NIC parameters then come from\n"
		 "DIR/dgrdma-tune/ethtool/IFACE and device-mapper tables from "
		 "DIR/dgrdma-tune/dm/NAME\n"
		 "(formats in docs/tune.md). apply writes under DIR.\n" },
	{ .id = OPT_PROFILE,
	  .name = "profile",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "NAME",
	  .values = "rx|rx-dmcrypt|tx",
	  .subcommands = APPLY,
	  .usage = "  --profile NAME   rx, rx-dmcrypt or tx\n"
		   "  --if IFACE       interface whose ring sizes are set (a bond: each slave)\n",
	  .man = "\\fIrx\\fR (RX at a high rate), \\fIrx-dmcrypt\\fR (RX writing to a dm-crypt "
		 "disk), \\fItx\\fR.\n" },
	{ .id = OPT_ONLY,
	  .name = "only",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "WHAT",
	  .values = "sysctl|rings|pause|all",
	  .subcommands = APPLY,
	  .usage = "  --only WHAT      sysctl, rings, pause or all (default all)\n",
	  .man = "\\fIsysctl\\fR, \\fIrings\\fR, \\fIpause\\fR or \\fIall\\fR (default).\n" },
	{ .id = OPT_DRY_RUN,
	  .name = "dry-run",
	  .type = DGR_OPT_FLAG,
	  .subcommands = APPLY,
	  .usage = "  --dry-run        print the commands, change nothing (the default)\n",
	  .man = "print the commands, change nothing (the default).\n" },
	{ .id = OPT_YES,
	  .name = "yes",
	  .type = DGR_OPT_FLAG,
	  .subcommands = APPLY,
	  .usage = "  --yes            apply sysctls, ring sizes and pause frames (root)\n",
	  .man = "apply the runtime actions (needs root: CAP_SYS_ADMIN for sysctls, CAP_NET_ADMIN "
		 "for rings).\n" },
	{ .id = OPT_PERSIST,
	  .name = "persist",
	  .type = DGR_OPT_FLAG,
	  .subcommands = APPLY,
	  .usage = "  --persist        also write /etc/sysctl.d/90-dgrdma.conf (with --yes)\n"
		   "  --json           JSON instead of text\n"
		   "  --root DIR       act under DIR (sysctl files and ethtool fixtures)\n",
	  .man = "with \\fB\\-\\-yes\\fR, also write /etc/sysctl.d/90-dgrdma.conf; in a dry run, "
		 "print it.\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help       this text\n",
	  .man = "usage.\n" },
	{ .id = OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version        the version of dgrdma-tools\n",
	  .man = "The version of dgrdma-tools.\n" },
	{ .id = OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options   every option with its type and command, one a line (with\n"
		   "                   --json: one JSON object)\n",
	  .man = DGR_OPTS_MAN_LIST_OPTIONS },
	{ .type = DGR_OPT_TEXT,
	  .usage = "\n"
		   "Exit status (docs/cli.md): 0 nothing to fix (check) or all applied (apply);\n"
		   "1 something to fix (check); 2 bad usage; 3 an action failed (apply) or the\n"
		   "settings could not be read.\n" },
};
#undef CHECK
#undef APPLY

static const char *const tune_commands[] = { "check", "apply" };
static const char *const tune_command_article[] = { "a check", "an apply" };

static const struct dgr_opt_table tune_options = {
	.tool = "dgrdma-tune",
	.opts = tune_opts,
	.nopts = sizeof(tune_opts) / sizeof(tune_opts[0]),
	.subcommands = tune_commands,
	.subcommand_article = tune_command_article,
	.nsubcommands = 2,
	.man_tail = ".PP\n"
		    "Values follow their option or are joined with\n"
		    ".B =\n"
		    ".RB ( \\-\\-regime=jitter\\-bound ).\n",
};

static void usage(FILE *out)
{
	dgr_opts_usage(&tune_options, out);
}

struct cli {
	struct dgr_tune_opts opts;
	enum dgr_tune_regime regime;
	enum dgr_tune_profile profile;
	bool have_profile, json, relevant, yes, dry_run, persist;
	unsigned int only;
	int cmd;	    /* CMD_CHECK, CMD_APPLY; -1: none (--help, --version, --list-options) */
	int stop;	    /* 'h', OPT_VERSION or OPT_LIST_OPTIONS: main prints it */
	bool err_names_cmd; /* the error is the command's: "dgrdma-tune apply: ..." */
};

/* "invalid --regime 'calm': expected ..." into errbuf. Returns -DGR_E_INVAL. */
static int bad_value(char *errbuf, const char *opt, const char *val, const char *accepted)
{
	return dgr_errbuf_set(errbuf, DGR_E_INVAL, "invalid %s '%s': expected %s", opt, val,
			      accepted);
}

/*
 * The table's handler (opts.h): one option into the struct cli ctx. An option of the
 * other command is refused here, by the name given, before its value is looked at.
 * Returns 0, DGR_OPTS_STOP or -DGR_E_INVAL with errbuf.
 */
static int tune_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
		       const union dgr_opt_value *v, char *errbuf)
{
	struct cli *c = ctx;
	struct stat st;

	(void)v;
	if (c->cmd >= 0 && o->subcommands && !((o->subcommands >> c->cmd) & 1u)) {
		c->err_names_cmd = true;
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "option '%s' belongs to '%s'", given,
				      tune_commands[!c->cmd]);
	}
	switch (o->id) {
	case OPT_IF:
		if (!arg[0] || strlen(arg) > 15 || strchr(arg, '/')) {
			return bad_value(errbuf, "--if", arg,
					 "an interface name of 1..15 characters");
		}
		c->opts.iface = arg;
		break;
	case OPT_REGIME:
		if (dgr_tune_regime_parse(arg, &c->regime) < 0) {
			return bad_value(errbuf, "--regime", arg,
					 "healthy, jitter-bound or throughput-bound");
		}
		break;
	case OPT_RELEVANT:
		c->relevant = true;
		break;
	case OPT_DATA_PATH:
		if (!arg[0]) {
			return bad_value(errbuf, "--data-path", arg, "a file or folder path");
		}
		c->opts.output_path = arg;
		break;
	case OPT_JSON:
		c->json = true;
		break;
	case OPT_ROOT:
		if (stat(arg, &st) < 0 || !S_ISDIR(st.st_mode)) {
			return bad_value(errbuf, "--root", arg, "an existing folder");
		}
		c->opts.root = arg;
		break;
	case OPT_PROFILE:
		if (dgr_tune_profile_parse(arg, &c->profile) < 0) {
			return bad_value(errbuf, "--profile", arg, "rx, rx-dmcrypt or tx");
		}
		c->have_profile = true;
		break;
	case OPT_ONLY:
		if (strcmp(arg, "sysctl") == 0) {
			c->only = DGR_TUNE_ONLY_SYSCTL;
		} else if (strcmp(arg, "rings") == 0) {
			c->only = DGR_TUNE_ONLY_RINGS;
		} else if (strcmp(arg, "pause") == 0) {
			c->only = DGR_TUNE_ONLY_PAUSE;
		} else if (strcmp(arg, "all") == 0) {
			c->only = DGR_TUNE_ONLY_ALL;
		} else {
			return bad_value(errbuf, "--only", arg, "sysctl, rings, pause or all");
		}
		break;
	case OPT_DRY_RUN:
		c->dry_run = true;
		break;
	case OPT_YES:
		c->yes = true;
		break;
	case OPT_PERSIST:
		c->persist = true;
		break;
	default:
		c->stop = o->id;
		return DGR_OPTS_STOP;
	}
	return 0;
}

/*
 * Reads the options of command c->cmd (argv[0] its name as getopt's messages give it) into
 * c. Returns 0, DGR_OPTS_STOP (main prints --help, --version, --list-options) or
 * -DGR_E_INVAL with errbuf (c->err_names_cmd: the message is the command's).
 */
static int parse_args(int argc, char **argv, struct cli *c, char *errbuf)
{
	bool apply = c->cmd == CMD_APPLY;
	int rc;

	rc = dgr_opts_parse(&tune_options, argc, argv, -1, DGR_OPTS_NO_OPERANDS, tune_option, c,
			    NULL, errbuf);
	if (rc != 0) {
		/* getopt named an unknown option or a missing value, with the command */
		c->err_names_cmd = c->err_names_cmd || strcmp(errbuf, "see --help") == 0;
		return rc;
	}
	c->err_names_cmd = true;
	if (c->relevant && c->regime == DGR_REGIME_ANY) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--relevant needs --regime");
	}
	if (apply && !c->have_profile) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--profile is required (rx, rx-dmcrypt or tx)");
	}
	if (c->yes && c->dry_run) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--yes and --dry-run exclude each other");
	}
	c->err_names_cmd = false;
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
	struct cli c = { .opts = { .root = "/" }, .only = DGR_TUNE_ONLY_ALL, .cmd = -1 };
	char errbuf[DGR_ERRBUF_SIZE] = "";
	int rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "check") == 0) {
		c.cmd = CMD_CHECK;
		argv[1] = (char *)"dgrdma-tune check";
	} else if (strcmp(argv[1], "apply") == 0) {
		c.cmd = CMD_APPLY;
		argv[1] = (char *)"dgrdma-tune apply";
	}
	if (c.cmd >= 0) {
		rc = parse_args(argc - 1, argv + 1, &c, errbuf);
	} else {
		/* no command: --help, --version, --list-options, else an unknown command */
		rc = dgr_opts_parse(&tune_options, argc, argv, -1,
				    DGR_OPTS_NO_OPERANDS | DGR_OPTS_OWN_MESSAGES, tune_option, &c,
				    NULL, errbuf);
		if (rc != DGR_OPTS_STOP) {
			fprintf(stderr,
				"dgrdma-tune: unknown command '%s': expected check or apply\n",
				argv[1]);
			return EXIT_USAGE;
		}
	}
	if (rc < 0) {
		if (c.err_names_cmd) {
			fprintf(stderr, "dgrdma-tune %s: %s\n", tune_commands[c.cmd], errbuf);
		} else {
			fprintf(stderr, "dgrdma-tune: %s\n", errbuf);
		}
		return EXIT_USAGE;
	}
	if (rc == DGR_OPTS_STOP) {
		if (c.stop == 'h') {
			usage(stdout);
		} else if (c.stop == OPT_VERSION) {
			printf("dgrdma-tune (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&tune_options, argc, argv, stdout);
		}
		return DGR_EXIT_OK;
	}
	return c.cmd == CMD_APPLY ? cmd_apply(&c) : cmd_check(&c);
}
