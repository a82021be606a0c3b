// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A flight recorder's incidents (see incidents.h). Each incident is a run
 * folder: it is reported by latency-report itself, run once per incident on
 * that folder with the user's options, so that an incident's report is
 * exactly the one `latency-report incident-NNN` gives. The summary line of
 * each comes from its JSON report (regime.summary, losses.any). The whole
 * run's record (record/, a trace of the counters and drop events) is reported
 * the same way, with the user's --csv: its drops.csv is the drop rate over the
 * whole run, and incidents.csv puts each incident on that time axis.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"

#include "ctf_input.h"
#include "incidents.h"

extern char **environ;

#define INCIDENTS_MAX 10000 /* dgrdma-capture --max-incidents' range */

/* The number of an incident-NNN name, or -1. */
static long incident_number(const char *name)
{
	const char *p;
	long n = 0;

	if (strncmp(name, "incident-", 9) != 0 || strlen(name) < 12) {
		return -1;
	}
	for (p = name + 9; *p; p++) {
		if (*p < '0' || *p > '9' || n > 100000000) {
			return -1;
		}
		n = n * 10 + (*p - '0');
	}
	return n;
}

static bool is_subdir(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool incidents_dir_is(const char *dir)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d) {
		return false;
	}
	while (!found && (de = readdir(d)) != NULL) {
		found = incident_number(de->d_name) >= 0 && is_subdir(dir, de->d_name);
	}
	closedir(d);
	if (!found) {
		/* a recorder's run without an incident: its whole run's record all the same */
		char record[4096];

		snprintf(record, sizeof(record), "%.4000s/record", dir);
		found = ctf_input_is_trace(record);
	}
	return found;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * The incidents' numbers of dir, sorted, into *out (malloc'd). Returns how
 * many, or -DGR_E_SYS or -DGR_E_NOMEM (errno says which) when dir cannot be
 * listed.
 */
static int list_incidents(const char *dir, long **out)
{
	struct dirent *de;
	long *v = NULL, *nv;
	size_t n = 0, cap = 0;
	DIR *d = opendir(dir);

	if (!d) {
		return -DGR_E_SYS;
	}
	while ((de = readdir(d)) != NULL && n < INCIDENTS_MAX) {
		long k = incident_number(de->d_name);

		if (k < 0 || !is_subdir(dir, de->d_name)) {
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				errno = ENOMEM;
				return -DGR_E_NOMEM;
			}
			v = nv;
		}
		v[n++] = k;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_long);
	*out = v;
	return (int)n;
}

/*
 * Runs self with argv, argv[input] replaced by folder, "--json" put first
 * when add_json; its standard output into *text (malloc'd, NUL-terminated) when
 * text is not NULL, else to ours. Returns its exit status, -DGR_E_NOMEM, or
 * -DGR_E_SYS when it could not be run or did not exit.
 */
static int run_report(const char *self, int argc, char **argv, int input, const char *folder,
		      bool add_json, char **text)
{
	char **args = calloc((size_t)argc + 2, sizeof(*args));
	posix_spawn_file_actions_t fa;
	int fds[2] = { -1, -1 }, status = -DGR_E_SYS, i;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	pid_t pid;

	if (!args) {
		return -DGR_E_NOMEM;
	}
	/* --json first: after a "--" it would be an input */
	args[0] = argv[0];
	if (add_json) {
		args[1] = "--json";
	}
	for (i = 1; i < argc; i++) {
		args[i + add_json] = i == input ? (char *)folder : argv[i];
	}
	if (text && pipe(fds) < 0) {
		free(args);
		return -DGR_E_SYS;
	}
	posix_spawn_file_actions_init(&fa);
	if (text) {
		posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
		posix_spawn_file_actions_addclose(&fa, fds[0]);
		posix_spawn_file_actions_addclose(&fa, fds[1]);
	}
	if (posix_spawn(&pid, self, &fa, NULL, args, environ) != 0) {
		goto out;
	}
	if (text) {
		ssize_t got;

		close(fds[1]);
		fds[1] = -1;
		for (;;) {
			if (cap - len < 65536) {
				char *nb = realloc(buf, cap + 262144);

				if (!nb) {
					break;
				}
				buf = nb;
				cap += 262144;
			}
			got = read(fds[0], buf + len, cap - len - 1);
			if (got < 0 && errno == EINTR) {
				continue;
			}
			if (got <= 0) {
				break;
			}
			len += (size_t)got;
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	status = WIFEXITED(status) ? WEXITSTATUS(status) : -DGR_E_SYS;
out:
	posix_spawn_file_actions_destroy(&fa);
	if (fds[0] >= 0) {
		close(fds[0]);
	}
	if (fds[1] >= 0) {
		close(fds[1]);
	}
	if (text) {
		if (buf) {
			buf[len] = '\0';
		}
		*text = buf;
	} else {
		free(buf);
	}
	free(args);
	return status;
}

/* A string member of an object at path a.b, or def. */
static const char *str_at(json_t *root, const char *a, const char *b, const char *def)
{
	json_t *v = json_object_get(json_object_get(root, a), b);

	return json_is_string(v) ? json_string_value(v) : def;
}

/* The incident's own run.json (its trigger), or NULL. */
static json_t *incident_run_json(const char *folder)
{
	char path[4096];

	snprintf(path, sizeof(path), "%.4000s/run.json", folder);
	return json_load_file(path, 0, NULL);
}

/*
 * argv without the options of the CSV folder (--csv, --plot-columns,
 * --doorbell-rows), into *out (malloc'd, argc words at most), its input's index
 * into *out_input: an incident's report writes no CSV (the whole run's record
 * does). The options are found by their values, which the parser read as
 * pointers into argv (values, n): a word of its own drops the word before it
 * too (the option as spelt, abbreviated or not), a value inside a word
 * (--csv=DIR) drops that word. Returns the count of words, or -DGR_E_NOMEM.
 */
static int argv_without_csv(int argc, char **argv, int input, const char *const *values,
			    unsigned int n, char ***out, int *out_input)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	int i, m = 0;
	unsigned int k;

	if (!v) {
		return -DGR_E_NOMEM;
	}
	for (i = 0; i < argc; i++) {
		bool drop = false;

		for (k = 0; k < n && !drop; k++) {
			if (values[k] == argv[i]) {
				m--; /* the option's own word, just kept */
				drop = true;
			} else if (values[k] > argv[i] && values[k] <= argv[i] + strlen(argv[i])) {
				drop = true;
			}
		}
		if (drop) {
			continue;
		}
		if (i == input) {
			*out_input = m;
		}
		v[m++] = argv[i];
	}
	v[m] = NULL;
	*out = v;
	return m;
}

/* A whole number member of an object at path a.b (a NULL: the object itself), or def. */
static int64_t int_at(json_t *root, const char *a, const char *b, int64_t def)
{
	json_t *v = json_object_get(a ? json_object_get(root, a) : root, b);

	return json_is_integer(v) ? (int64_t)json_integer_value(v) : def;
}

/*
 * The whole run's time axis from its record's report (time_axis, written by
 * lr_offline): the ns from origin its drops.csv counts from, and where the
 * trace puts CLOCK_MONOTONIC's 0. Returns false when the report has none.
 */
static bool whole_run_axis(json_t *rep, int64_t *origin_ns, int64_t *mono_zero_ns)
{
	json_t *ax = json_object_get(rep, "time_axis");

	if (!json_is_integer(json_object_get(ax, "origin_ns")) ||
	    !json_is_integer(json_object_get(ax, "monotonic_zero_ns"))) {
		return false;
	}
	*origin_ns = int_at(ax, NULL, "origin_ns", 0);
	*mono_zero_ns = int_at(ax, NULL, "monotonic_zero_ns", 0);
	return true;
}

/*
 * An incident's time in the whole run (s from its record's origin), from its
 * run.json's incident.at (the recorder's CLOCK_MONOTONIC reading when the
 * trigger came); NAN when either is unknown.
 */
static double incident_time_s(json_t *run, bool axis, int64_t origin_ns, int64_t mono_zero_ns)
{
	json_t *at = json_object_get(json_object_get(run, "incident"), "at");
	int64_t sec = int_at(at, NULL, "monotonic_sec", -1);
	int64_t nsec = int_at(at, NULL, "monotonic_nsec", -1);

	/* a hostile run.json's reading is no time (and no overflow) */
	if (!axis || sec < 0 || sec > 4000000000 || nsec < 0 || nsec > 999999999) {
		return NAN;
	}
	return (double)(sec * 1000000000 + nsec + mono_zero_ns - origin_ns) / 1e9;
}

/* A CSV field in double quotes, its quotes doubled. */
static void csv_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"') {
			fputc('"', f);
		}
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

/*
 * Opens csv_dir/incidents.csv (the folder made when missing) with its header.
 * Returns the file, or NULL with a message on stderr.
 */
static FILE *incidents_csv_open(const char *csv_dir)
{
	char path[4096];
	FILE *f;

	if (mkdir(csv_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "latency-report: --csv: cannot create %s: %s\n", csv_dir,
			strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%.4000s/incidents.csv", csv_dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "latency-report: --csv: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "incident,time_s,trigger\n");
	return f;
}

/* See incidents.h. */
int incidents_report(const char *dir, const char *self, int argc, char **argv, int input,
		     const char *const *csv_values, unsigned int n_csv_values, bool json,
		     const char *csv_dir)
{
	json_t *out = NULL, *list = NULL, *main_run = NULL, *fr, *whole = NULL;
	char path[4096], folder[4096], record[4096];
	char **iargv = NULL;
	long *nums = NULL;
	int n, i, iargc, iinput = input, worst = 0, whole_st = 0;
	int64_t origin_ns = 0, mono_zero_ns = 0;
	bool axis = false;
	FILE *csv = NULL;

	n = list_incidents(dir, &nums);
	if (n < 0) {
		fprintf(stderr, "latency-report: %s: %s\n", dir, strerror(errno));
		return DGR_EXIT_USAGE;
	}
	iargc = argv_without_csv(argc, argv, input, csv_values, n_csv_values, &iargv, &iinput);
	if (iargc < 0) {
		fprintf(stderr, "latency-report: out of memory\n");
		free(nums);
		return DGR_EXIT_FAILED;
	}
	/*
	 * the whole run's record: reported first, with the user's --csv (none when
	 * no process traced: the session wrote no trace)
	 */
	snprintf(record, sizeof(record), "%.4000s/record", dir);
	if (ctf_input_is_trace(record)) {
		char *text = NULL;

		whole_st = run_report(self, argc, argv, input, record, !json, &text);
		if (whole_st < 0 || !text) {
			fprintf(stderr, "latency-report: %s: the report could not be run\n",
				record);
			free(text);
			worst = DGR_EXIT_FAILED;
			goto done;
		}
		whole = json_loads(text, 0, NULL);
		free(text);
		axis = whole_run_axis(whole, &origin_ns, &mono_zero_ns);
		worst = whole_st;
	}
	if (csv_dir) {
		csv = incidents_csv_open(csv_dir);
		if (!csv) {
			worst = DGR_EXIT_FAILED;
			goto done;
		}
	}
	snprintf(path, sizeof(path), "%s/run.json", dir);
	main_run = json_load_file(path, 0, NULL);
	fr = json_object_get(main_run, "flight_recorder");
	out = json_object();
	list = json_array();
	if (!out || !list) {
		fprintf(stderr, "latency-report: out of memory\n");
		worst = DGR_EXIT_FAILED;
		goto done;
	}
	if (!json) {
		printf("Incidents of %s: %d", dir, n);
		if (json_is_object(fr)) {
			printf(
			    " (the recorder wrote %lld; %lld triggers past --max-incidents %lld)",
			    (long long)json_integer_value(json_object_get(fr, "incidents")),
			    (long long)json_integer_value(
				json_object_get(fr, "triggers_past_limit")),
			    (long long)json_integer_value(json_object_get(fr, "max_incidents")));
		}
		printf("\n");
	}
	for (i = 0; i < n; i++) {
		json_t *rep = NULL, *run, *item;
		char *text = NULL;
		const char *trigger;
		double at_s;
		int st;

		snprintf(folder, sizeof(folder), "%s/incident-%03ld", dir, nums[i]);
		run = incident_run_json(folder);
		trigger = str_at(run, "incident", "trigger", "unknown trigger");
		at_s = incident_time_s(run, axis, origin_ns, mono_zero_ns);
		if (csv) {
			fprintf(csv, "%ld,", nums[i]);
			if (!isnan(at_s)) {
				fprintf(csv, "%.6f", at_s);
			}
			fputc(',', csv);
			csv_quoted(csv, trigger);
			fputc('\n', csv);
		}
		st = run_report(self, iargc, iargv, iinput, folder, !json, &text);
		if (st < 0 || !text) {
			fprintf(stderr, "latency-report: %s: the report could not be run\n",
				folder);
			free(text);
			json_decref(run);
			worst = DGR_EXIT_FAILED;
			goto done;
		}
		rep = json_loads(text, 0, NULL);
		free(text);
		item = json_object();
		json_object_set_new(item, "incident", json_string(folder));
		json_object_set_new(item, "trigger", json_string(trigger));
		json_object_set_new(item, "exit_status", json_integer(st));
		json_object_set_new(item, "time_s", isnan(at_s) ? json_null() : json_real(at_s));
		json_object_set(item, "in_short",
				json_object_get(json_object_get(rep, "regime"), "summary"));
		json_object_set(item, "any_loss",
				json_object_get(json_object_get(rep, "losses"), "any"));
		if (json) {
			json_object_set(item, "report", rep ? rep : json_null());
		} else {
			json_t *loss = json_object_get(item, "any_loss");

			printf("  incident-%03ld: %s; %s; loss: %s", nums[i], trigger,
			       str_at(rep, "regime", "summary", "no report"),
			       json_is_true(loss)    ? "yes"
			       : json_is_false(loss) ? "no"
						     : "unknown");
			if (!isnan(at_s)) {
				printf("; at %.3f s of the whole run", at_s);
			}
			printf("%s\n", st ? " (exit status of its report: see below)" : "");
		}
		json_array_append_new(list, item);
		json_decref(rep);
		json_decref(run);
		if (st > worst) {
			worst = st;
		}
	}
	if (json) {
		json_object_set_new(out, "incidents_dir", json_string(dir));
		json_object_set(out, "flight_recorder", json_is_object(fr) ? fr : json_null());
		json_object_set(out, "incidents", list);
		if (whole) {
			json_t *w = json_object();

			json_object_set_new(w, "record", json_string(record));
			json_object_set_new(w, "exit_status", json_integer(whole_st));
			json_object_set(w, "report", whole);
			json_object_set_new(out, "whole_run", w);
		} else {
			json_object_set_new(out, "whole_run", json_null());
		}
		json_dumpf(out, stdout, JSON_INDENT(2));
		printf("\n");
		goto done;
	}
	if (whole) {
		json_t *seen = json_object_get(json_object_get(whole, "host"), "events_seen");

		printf("  whole run (%s): %" PRId64 " counter snapshots; the emulator's drop "
		       "periods %" PRId64 " and discontinuities %" PRId64
		       "; the host's discontinuous transactions %" PRId64
		       ", packets the kernel dropped %" PRId64
		       " (the drop rate over the run: --csv DIR, dgrdma-plot)\n",
		       record, int_at(seen, NULL, "counter_snapshots", 0),
		       int_at(seen, NULL, "fpga_drop_periods", 0),
		       int_at(seen, NULL, "fpga_discontinuities", 0),
		       int_at(json_object_get(whole, "host"), "rx", "discontinuities", 0),
		       int_at(seen, NULL, "socket_drops", 0));
	}
	/* then each incident's own report, as latency-report gives it */
	for (i = 0; i < n; i++) {
		int st;

		snprintf(folder, sizeof(folder), "%s/incident-%03ld", dir, nums[i]);
		printf("\n== incident-%03ld (%s) ==\n", nums[i], folder);
		fflush(stdout);
		st = run_report(self, iargc, iargv, iinput, folder, false, NULL);
		if (st < 0) {
			fprintf(stderr, "latency-report: %s: the report could not be run\n",
				folder);
			worst = DGR_EXIT_FAILED;
			goto done;
		}
	}
done:
	if (csv && fclose(csv) != 0) {
		fprintf(stderr, "latency-report: --csv: incidents.csv: %s\n", strerror(errno));
		worst = DGR_EXIT_FAILED;
	}
	json_decref(whole);
	free(iargv);
	json_decref(list);
	json_decref(out);
	json_decref(main_run);
	free(nums);
	return worst;
}
