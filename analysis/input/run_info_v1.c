// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one conversion step of a dgrdma-run/1 run.json (see run_info_v1.h): its
 * facts were never recorded, only the command line, so they are read back from
 * it here, as dgrdma-host, dgrdma-ctl and dgrdma-fpga took their options, into
 * the "settings" object a dgrdma-run/2 file holds. Nothing else reads a
 * recorded command line.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <dgrdma/proto.h>

#include "cli.h"
#include "run_info.h"
#include "run_info_v1.h"

/*
 * The next value of option opt in the recorded command from element *pos on
 * ("--opt", "VALUE" or "--opt=VALUE", as getopt_long takes them; none after
 * "--"): 1, *val and *pos past it when found, 0 when absent, -DGR_E_INVAL when
 * the option is its last element.
 */
static int command_next(const json_t *cmd, const char *opt, size_t *pos, const char **val,
			char *errbuf)
{
	size_t i, n = json_array_size(cmd), ol = strlen(opt);

	for (i = *pos; i < n; i++) {
		const char *a = json_string_value(json_array_get(cmd, i));

		if (!strcmp(a, "--")) {
			break;
		}
		if (!strncmp(a, opt, ol) && a[ol] == '=') {
			*val = a + ol + 1;
			*pos = i + 1;
			return 1;
		}
		if (!strcmp(a, opt)) {
			if (i + 1 == n) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL,
						      "command: %s is its last element (no value)",
						      opt);
			}
			*val = json_string_value(json_array_get(cmd, i + 1));
			*pos = i + 2;
			return 1;
		}
	}
	return 0;
}

/* The first value of option opt in the whole recorded command (command_next). */
static int command_value(const json_t *cmd, const char *opt, const char **val, char *errbuf)
{
	size_t pos = 0;

	return command_next(cmd, opt, &pos, val, errbuf);
}

/*
 * The stream's rate in the recorded command: the last --sample-rate or --rate
 * (its old name), as getopt_long takes them. 1 with *opt and *val, 0 when
 * absent, -DGR_E_INVAL when one is the command's last element.
 */
static int command_rate(const json_t *cmd, const char **opt, const char **val, char *errbuf)
{
	static const char *const names[] = { "--sample-rate", "--rate" };
	size_t best = 0, pos, at;
	const char *v;
	unsigned int k;
	int rc, found = 0;

	for (k = 0; k < 2; k++) {
		pos = 0;
		while ((rc = command_next(cmd, names[k], &pos, &v, errbuf)) > 0) {
			at = pos;
			if (!found || at > best) {
				best = at;
				*opt = names[k];
				*val = v;
				found = 1;
			}
		}
		if (rc < 0) {
			return rc;
		}
	}
	return found;
}

/* Whether flag opt stands in the recorded command from element from on (before "--"). */
static bool command_flag(const json_t *cmd, size_t from, const char *opt)
{
	size_t i, n = json_array_size(cmd);

	for (i = from; i < n; i++) {
		const char *a = json_string_value(json_array_get(cmd, i));

		if (!strcmp(a, "--")) {
			break;
		}
		if (!strcmp(a, opt)) {
			return true;
		}
	}
	return false;
}

/*
 * The index of the dgrdma-host, dgrdma-ctl or dgrdma-fpga program in the
 * command (it may be wrapped: ip netns exec, taskset), or -1; *fpga tells
 * the emulator from the host-side tools.
 */
static int find_program(const json_t *cmd, bool *fpga)
{
	size_t i, n = json_array_size(cmd);

	for (i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(cmd, i));
		const char *base = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;

		if (!strcmp(base, "dgrdma-host") || !strcmp(base, "dgrdma-ctl") ||
		    !strcmp(base, "dgrdma-fpga")) {
			*fpga = base[7] == 'f';
			return (int)i;
		}
	}
	return -1;
}

/* Sets key of obj to a new value (a NULL value: out of memory). Returns 0 or -DGR_E_NOMEM. */
static int put(json_t *obj, const char *key, json_t *value, char *errbuf)
{
	if (!value || json_object_set_new(obj, key, value) < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "command: out of memory");
	}
	return 0;
}

/* The data path of the command whose program is element prog: "rx", "tx" or NULL (unknown). */
static const char *command_path(const json_t *cmd, int prog, bool fpga)
{
	size_t n = json_array_size(cmd), pos;
	const char *path = NULL, *val;
	int rc;

	if (!fpga) {
		const char *sub = (size_t)prog + 1 < n
				      ? json_string_value(json_array_get(cmd, (size_t)prog + 1))
				      : "";

		return !strcmp(sub, "rx") ? "rx" : !strcmp(sub, "tx") ? "tx" : NULL;
	}
	path = "rx"; /* dgrdma-fpga's default mode: the ADC */
	pos = (size_t)prog + 1;
	/* the last --mode counts, as getopt_long takes it; one without a value is unknown */
	while ((rc = command_next(cmd, "--mode", &pos, &val, NULL)) != 0) {
		path = rc < 0		     ? NULL
		       : !strcmp(val, "adc") ? "rx"
		       : !strcmp(val, "dac") ? "tx"
					     : NULL;
		if (rc < 0) {
			break;
		}
	}
	return path;
}

/*
 * The addresses of a command with --udp: its --bind as "local", its --peer
 * values as "peers" (each checked: a port 1..65535 after a colon).
 */
static int command_addresses(const json_t *cmd, int prog, json_t *s, char *errbuf)
{
	static const char *const opts[] = { "--bind", "--peer" };
	char msg[DGR_ERRBUF_SIZE];
	json_t *peers = json_array();
	const char *val;
	size_t pos;
	uint64_t port;
	unsigned int k;
	int rc = 0;

	if (put(s, "transport", json_string("udp"), errbuf) < 0 ||
	    put(s, "peers", peers, errbuf) < 0) {
		return -DGR_E_NOMEM;
	}
	for (k = 0; k < 2; k++) {
		pos = (size_t)prog + 1;
		while ((rc = command_next(cmd, opts[k], &pos, &val, errbuf)) > 0) {
			const char *colon = strchr(val, ':');

			if (colon &&
			    dgr_parse_u64(opts[k], colon + 1, 1, 65535, false, &port, msg) < 0) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL, "command: %.200s", msg);
			}
			if (k == 0 && !json_object_get(s, "local")) {
				rc = put(s, "local", json_string(val), errbuf);
			} else if (k == 1) {
				json_t *p = json_object();

				rc = put(p ? p : s, "address", p ? json_string(val) : NULL, errbuf);
				if (rc == 0 && json_array_append_new(peers, p) < 0) {
					rc = dgr_errbuf_set(errbuf, DGR_E_NOMEM,
							    "command: out of memory");
				}
			}
			if (rc < 0) {
				return rc;
			}
		}
		if (rc < 0) {
			return rc;
		}
	}
	return 0;
}

/* See run_info_v1.h. */
int run_info_v1_settings(const json_t *cmd, json_t **settings, char *errbuf)
{
	static const struct {
		const char *opt, *fpga_opt, *key;
		uint64_t min, max;
	} sizes[] = {
		{ "--buffers", "--host-buffers", "host_buffers", 1, RUN_INFO_MAX_BUFFERS },
		/* dgrdma-fpga's own buffers are its --buffers */
		{ "--fpga-buffers", "--buffers", "fpga_buffers", 0, RUN_INFO_MAX_BUFFERS },
		{ "--buffer-size", "--buffer-size", "buffer_size", 1, RUN_INFO_MAX_BUFFER_SIZE },
	};
	char msg[DGR_ERRBUF_SIZE];
	const char *val, *opt, *path;
	json_t *s = json_object();
	bool fpga = false;
	double rate;
	uint64_t v;
	size_t i;
	int rc = 0, prog;

	if (!s) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "command: out of memory");
	}
	prog = find_program(cmd, &fpga);
	if (prog >= 0) {
		const char *a = json_string_value(json_array_get(cmd, (size_t)prog));
		const char *base = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;

		rc = put(s, "tool", json_string(base), errbuf);
		path = command_path(cmd, prog, fpga);
		if (rc == 0 && path) {
			rc = put(s, "path", json_string(path), errbuf);
		}
		if (rc == 0 && command_flag(cmd, (size_t)prog + 1, "--udp")) {
			rc = command_addresses(cmd, prog, s, errbuf);
		}
	}
	for (i = 0; rc == 0 && i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		opt = fpga ? sizes[i].fpga_opt : sizes[i].opt;
		rc = command_value(cmd, opt, &val, errbuf);
		if (rc <= 0) {
			continue;
		}
		if (dgr_parse_u64(opt, val, sizes[i].min, sizes[i].max, true, &v, msg) < 0) {
			rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "command: %.200s", msg);
			break;
		}
		rc = put(s, sizes[i].key, json_integer((json_int_t)v), errbuf);
	}
	if (rc == 0) {
		rc = command_rate(cmd, &opt, &val, errbuf);
		if (rc == 1) {
			/* 0: dgrdma-host tx as fast as credits allow, no rate to take */
			rc = dgr_parse_rate(opt, val, 0, RUN_INFO_MAX_RATE, &rate, msg) < 0
				 ? dgr_errbuf_set(errbuf, DGR_E_INVAL, "command: %.200s", msg)
				 : put(s, "sample_rate", json_real(rate), errbuf);
		}
	}
	if (rc < 0) {
		json_decref(s);
		return rc;
	}
	*settings = s;
	return 0;
}
