// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parts of a run folder (see run_folder.h). Each part is checked here,
 * before anything is read, so that a part that cannot be read is named with
 * its reason instead of leaving its section out of the report in silence
 * (issue 29): a report without its capture or its trace judges the run on
 * the other part alone, and its verdict can differ.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "capture_set.h"
#include "cli.h"
#include "ctf_input.h"
#include "pcap_input.h"
#include "run_folder.h"

/* dgrdma-capture's names for the parts (tracepoints/dgrdma-capture) */
static const char *const capture_names[] = { "capture.pcapng", "capture.pcap" };
static const char trace_name[] = "trace";

static bool entry_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

static bool is_folder(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool run_folder_is(const char *dir)
{
	return entry_exists(dir, "run.json") || entry_exists(dir, capture_names[0]) ||
	       entry_exists(dir, capture_names[1]) || entry_exists(dir, trace_name);
}

/* The path of a part named name in dir (name taken as is when absolute). */
static void part_path(struct run_folder_part *p, const char *dir, const char *name)
{
	if (name[0] == '/') {
		snprintf(p->path, sizeof(p->path), "%s", name);
	} else {
		snprintf(p->path, sizeof(p->path), "%s/%s", dir, name);
	}
}

/*
 * Why the capture at path cannot be read, into why ("" when it can): what
 * stat and open say, a folder, not a regular file, empty, not a capture.
 */
static void capture_problem(const char *path, char *why, size_t size)
{
	struct stat st;
	int fd;

	why[0] = '\0';
	if (stat(path, &st) != 0) {
		snprintf(why, size, "%s", strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		snprintf(why, size, "a folder, not a capture file");
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, size, "not a regular file");
	} else if (st.st_size == 0) {
		snprintf(why, size, "empty (0 bytes)");
	} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(why, size, "%s", strerror(errno));
	} else {
		close(fd);
		if (!pcap_input_is_capture(path)) {
			snprintf(why, size, "not a pcap or pcapng capture (no magic number)");
		}
	}
}

/*
 * The number in a dumpcap ring file's name, PREFIX_NNNNN_YYYYmmddHHMMSS.EXT
 * (its -b files:N names), or 0 when name is not such a name.
 */
static unsigned long ring_number(const char *name)
{
	const char *ext = strchr(name, '.'), *p;
	unsigned long n = 0;
	size_t digits = 0;

	if (!ext || ext - name < 22 || ext[-15] != '_') {
		return 0;
	}
	for (p = ext - 14; p < ext; p++) {
		if (*p < '0' || *p > '9') {
			return 0;
		}
	}
	/* the number before the date: at least 5 digits after an underscore */
	for (p = ext - 16; p >= name && *p >= '0' && *p <= '9'; p--) {
		digits++;
	}
	if (digits < 5 || digits > 9 || p < name || *p != '_') {
		return 0;
	}
	for (p++; *p != '_'; p++) {
		n = n * 10 + (unsigned long)(*p - '0');
	}
	return n;
}

/*
 * A capture part that is a folder: the capture files in it (as
 * capture_set_add_dir takes them) and their ring numbers into p, or why
 * there is none.
 */
static void capture_set_scan(struct run_folder_part *p, char *why, size_t size)
{
	char path[PATH_MAX + 256];
	struct dirent *de;
	unsigned long n;
	DIR *d;

	why[0] = '\0';
	p->set = true;
	d = opendir(p->path);
	if (!d) {
		snprintf(why, size, "%s", strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.') {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", p->path, de->d_name);
		if (!capture_set_is_capture(path)) {
			continue;
		}
		p->set_files++;
		n = ring_number(de->d_name);
		if (n && (!p->ring_first || n < p->ring_first)) {
			p->ring_first = n;
		}
		if (n > p->ring_last) {
			p->ring_last = n;
		}
	}
	closedir(d);
	if (!p->set_files) {
		snprintf(why, size,
			 "a folder without capture files (a ring of pcap or pcapng files)");
	}
	p->start_dropped = p->ring_first > 1;
}

/* The same for a trace folder: a file, no permission, empty, no CTF metadata below it. */
static void trace_problem(const char *path, char *why, size_t size)
{
	char msg[DGR_ERRBUF_SIZE];
	struct dirent *de;
	struct stat st;
	unsigned int entries = 0;
	DIR *d;

	why[0] = '\0';
	if (stat(path, &st) != 0) {
		snprintf(why, size, "%s", strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, size, "a file, not a trace folder");
		return;
	}
	d = opendir(path);
	if (!d) {
		snprintf(why, size, "%s", strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		entries += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	}
	closedir(d);
	if (entries == 0) {
		snprintf(why, size, "an empty folder");
	} else if (ctf_input_find(path, msg) < 0) {
		/* msg starts with the path, which the caller names */
		const char *rest = strstr(msg, ": no CTF trace");

		snprintf(why, size, "%.159s", rest ? rest + 2 : msg);
	}
}

/*
 * "the capture PATH (run.json's capture.path) cannot be read: WHY"; a long
 * path keeps its end, the part's name.
 */
static int refuse(const char *part, const struct run_folder_part *p, const char *source,
		  const char *why, char *errbuf)
{
	size_t n = strlen(p->path);
	const char *tail = n > 100 ? p->path + n - 97 : p->path;

	return dgr_errbuf_set(errbuf, DGR_E_INVAL, "the %s %s%s (%s) cannot be read: %.100s", part,
			      tail == p->path ? "" : "...", tail, source, why);
}

/*
 * A part whose recording ended before the run did (run.json's PART.lost) holds less of the run
 * than the folder says: refused, so that no report of the whole run rests on it. Given alone,
 * it is read for what it holds.
 */
static int refuse_lost(const char *part, const struct run_folder_part *p, const char *lost,
		       char *errbuf)
{
	size_t n = strlen(p->path);
	const char *tail = n > 50 ? p->path + n - 47 : p->path;

	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "the %s %s%s ends before the run did (%s.lost: %.115s); give it "
			      "alone for what it holds",
			      part, tail == p->path ? "" : "...", tail, part, lost);
}

static int resolve_capture(const char *dir, const struct run_info *ri, struct run_folder_part *p,
			   char *errbuf)
{
	enum run_part_state state = ri ? ri->capture.state : RUN_PART_UNSAID;
	char why[RUN_FOLDER_WHY_LEN];
	const char *source = "run.json's capture.path";
	unsigned int i;

	memset(p, 0, sizeof(*p));
	if (state == RUN_PART_NOT_RECORDED) {
		snprintf(p->why, sizeof(p->why), "not recorded (run.json: \"capture\": null)");
		return 0;
	}
	if (state == RUN_PART_RECORDED) {
		part_path(p, dir, ri->capture.path);
		if (ri->capture.lost[0]) {
			return refuse_lost("capture", p, ri->capture.lost, errbuf);
		}
	} else {
		for (i = 0; i < 2 && !entry_exists(dir, capture_names[i]); i++) {
		}
		if (i == 2) {
			snprintf(p->why, sizeof(p->why), "none in the folder (no %s or %s%s)",
				 capture_names[0], capture_names[1],
				 ri ? ", and run.json does not say" : ", and no run.json");
			return 0;
		}
		part_path(p, dir, capture_names[i]);
		source = "in the run folder";
	}
	if (state == RUN_PART_RECORDED && is_folder(p->path)) {
		capture_set_scan(p, why, sizeof(why));
	} else {
		capture_problem(p->path, why, sizeof(why));
	}
	if (why[0]) {
		return refuse("capture", p, source, why, errbuf);
	}
	p->read = true;
	return 0;
}

static int resolve_trace(const char *dir, const struct run_info *ri, struct run_folder_part *p,
			 char *errbuf)
{
	enum run_part_state state = ri ? ri->trace.state : RUN_PART_UNSAID;
	char why[RUN_FOLDER_WHY_LEN];
	const char *source = "run.json's trace.path";

	memset(p, 0, sizeof(*p));
	switch (state) {
	case RUN_PART_NOT_RECORDED:
		snprintf(p->why, sizeof(p->why), "not recorded (run.json: \"trace\": null)");
		return 0;
	case RUN_PART_ELSEWHERE:
		snprintf(p->why, sizeof(p->why),
			 "recorded by a relay daemon outside the folder (run.json: trace.path "
			 "null): give that trace folder as another INPUT");
		return 0;
	case RUN_PART_RECORDED:
		part_path(p, dir, ri->trace.path);
		if (ri->trace.lost[0]) {
			return refuse_lost("trace", p, ri->trace.lost, errbuf);
		}
		break;
	case RUN_PART_UNSAID:
		if (entry_exists(dir, trace_name)) {
			part_path(p, dir, trace_name);
			source = "in the run folder";
		} else if (ctf_input_is_trace(dir)) {
			/* a trace folder beside the other parts (an older layout) */
			snprintf(p->path, sizeof(p->path), "%s", dir);
			p->read = true;
			return 0;
		} else {
			snprintf(p->why, sizeof(p->why),
				 "none in the folder (no %s folder, no CTF metadata below it%s)",
				 trace_name,
				 ri ? ", and run.json does not say" : ", and no run.json");
			return 0;
		}
		break;
	}
	trace_problem(p->path, why, sizeof(why));
	if (why[0]) {
		if (ri && ri->trace.unreadable) {
			size_t n = strlen(why);

			snprintf(why + n, sizeof(why) - n,
				 "; dgrdma-capture found it unreadable too");
		}
		return refuse("trace", p, source, why, errbuf);
	}
	p->read = true;
	return 0;
}

int run_folder_resolve(const char *dir, const struct run_info *ri, struct run_folder *rf,
		       char *errbuf)
{
	char msg[DGR_ERRBUF_SIZE];
	int ret;

	memset(rf, 0, sizeof(*rf));
	rf->dir = dir;
	rf->has_run_json = ri != NULL;
	ret = resolve_capture(dir, ri, &rf->capture, msg);
	if (ret == 0) {
		ret = resolve_trace(dir, ri, &rf->trace, msg);
	}
	if (ret < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.250s", msg);
	}
	return ret;
}
