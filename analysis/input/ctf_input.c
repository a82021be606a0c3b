// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LTTng trace input through libbabeltrace2 (see ctf_input.h).
 *
 * The trace is checked first (ctf_check.c). Then a child process runs the
 * babeltrace2 graph (ctf_graph.c, in the trace reader's module that is loaded
 * only here: trace_module.h) and sends each event to this process over a
 * pipe, as compact records: an event class (its name and integer field
 * names) once, then per event the class id, the time and the field values.
 * The parent feeds them to the in-host analysis and watches the pipe: a
 * child that sends nothing for the stall limit (babeltrace2 looping on a
 * damaged trace) is killed, and a child that crashes takes nothing else down.
 * The child's stderr, where libbabeltrace2 logs, goes to /dev/null unless
 * verbose.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "ctf_check.h"
#include "ctf_input.h"
#include "trace_module.h"

/* trace folders read as one: a rotated trace has one per chunk (and per buffer scheme) */
#define MAX_TRACE_DIRS 65536

struct trace_dirs {
	char **dir;
	unsigned int n, cap;
	bool too_many; /* more than MAX_TRACE_DIRS (the rest not collected) */
	/* the first folder below the trace that could not be opened, and why ("" none) */
	char unopened[160];
	int unopened_errno;
};

/* Collects the folders below path (depth <= 8) holding a `metadata` file. */
static void find_metadata(const char *path, int depth, struct trace_dirs *t)
{
	char sub[4096];
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (depth > 8 || t->too_many) {
		return;
	}
	snprintf(sub, sizeof(sub), "%s/metadata", path);
	if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
		if (t->n == t->cap) {
			unsigned int cap = t->cap ? 2 * t->cap : 64;
			char **n = t->n < MAX_TRACE_DIRS ? realloc(t->dir, cap * sizeof(*n)) : NULL;

			if (!n) {
				t->too_many = true;
				return;
			}
			t->dir = n;
			t->cap = cap;
		}
		t->dir[t->n] = strdup(path);
		if (t->dir[t->n]) {
			t->n++;
		}
		return;
	}
	d = opendir(path);
	if (!d) {
		if (!t->unopened[0]) {
			snprintf(t->unopened, sizeof(t->unopened), "%s", path);
			t->unopened_errno = errno;
		}
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.') {
			continue;
		}
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			find_metadata(sub, depth + 1, t);
		}
	}
	closedir(d);
}

static void free_dirs(struct trace_dirs *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		free(t->dir[i]);
	}
	free(t->dir);
	t->dir = NULL;
	t->n = 0;
	t->cap = 0;
}

/*
 * "PATH: no CTF trace ... below it", with the folder that could not be opened
 * (named from path on), into errbuf.
 */
static int no_trace(const char *path, const struct trace_dirs *t, char *errbuf)
{
	size_t n = strlen(path);
	const char *below = t->unopened;

	if (!t->unopened[0]) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%.200s: no CTF trace (no 'metadata' file) below it", path);
	}
	if (!strncmp(below, path, n) && below[n] == '/') {
		below += n + 1;
	}
	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "%.100s: no CTF trace (no 'metadata' file) below it: %.80s: %s", path,
			      below, strerror(t->unopened_errno));
}

int ctf_input_find(const char *path, char *errbuf)
{
	struct trace_dirs t = { .n = 0 };
	int ret = 0;

	find_metadata(path, 0, &t);
	if (t.n == 0) {
		ret = no_trace(path, &t, errbuf);
	}
	free_dirs(&t);
	return ret;
}

bool ctf_input_is_trace(const char *path)
{
	struct trace_dirs t = { .n = 0 };
	struct stat st;
	bool yes;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		return false;
	}
	find_metadata(path, 0, &t);
	yes = t.n > 0;
	free_dirs(&t);
	return yes;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ctf_live_url_parse(const char *url, struct ctf_live_url *u, char *errbuf)
{
	const char *p = strstr(url, "://"), *host, *sess;
	size_t scheme;

	memset(u, 0, sizeof(*u));
	scheme = p ? (size_t)(p - url) : 0;
	if (!p || !((scheme == 3 && !strncmp(url, "net", 3)) ||
		    (scheme == 4 && (!strncmp(url, "net4", 4) || !strncmp(url, "net6", 4))))) {
		goto bad;
	}
	host = strstr(p + 3, "/host/");
	if (!host || host == p + 3) {
		goto bad;
	}
	sess = strchr(host + 6, '/');
	if (!sess || sess == host + 6 || !sess[1] || strchr(sess + 1, '/') ||
	    (size_t)(host - url) >= sizeof(u->relay) ||
	    (size_t)(sess - host - 6) >= sizeof(u->hostname) ||
	    strlen(sess + 1) >= sizeof(u->session)) {
		goto bad;
	}
	memcpy(u->relay, url, (size_t)(host - url));
	memcpy(u->hostname, host + 6, (size_t)(sess - host - 6));
	snprintf(u->session, sizeof(u->session), "%s", sess + 1);
	return 0;
bad:
	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "'%.120s' is not an LTTng live URL (accepted: "
			      "net://RELAYD[:PORT]/host/HOSTNAME/SESSION; net4://, net6:// too)",
			      url);
}

/* ---- parent: records into the in-host analysis --------------------------------------------- */

struct parent_class {
	char name[NAME_MAX_LEN + 1];
	unsigned int nfields;
	char fields[HE_MAX_FIELDS][NAME_MAX_LEN + 1];
	int arrival; /* the index of HE_ARRIVAL_FIELD, -1 none: it takes --trace-offset-ns too */
};

struct reader {
	struct host_analysis *h;
	struct host_event ev;
	struct parent_class *classes;
	uint32_t n_classes, cap_classes;
	bool done;
	char child_error[DGR_ERRBUF_SIZE];
};

/* Reads a u8-length name at p (avail bytes); returns the bytes used, 0 if incomplete. */
static size_t take_name(const uint8_t *p, size_t avail, char *out)
{
	if (avail < 1 || avail < 1u + p[0]) {
		return 0;
	}
	memcpy(out, p + 1, p[0]);
	out[p[0]] = '\0';
	return 1u + p[0];
}

/*
 * Handles the complete records of buf[0..len); returns the bytes used,
 * -DGR_E_INVAL on a record that breaks the format, or -DGR_E_NOMEM (errbuf
 * filled).
 */
static long take_records(struct reader *r, const uint8_t *buf, size_t len, char *errbuf)
{
	size_t off = 0;

	while (off < len) {
		const uint8_t *p = buf + off;
		size_t avail = len - off, used = 0, u, i;
		uint32_t id;

		switch (p[0]) {
		case REC_CLASS: {
			struct parent_class *k;

			if (avail < 6) {
				return (long)off;
			}
			memcpy(&id, p + 1, 4);
			if (id != r->n_classes || p[5] > HE_MAX_FIELDS) {
				goto bad;
			}
			if (r->n_classes == r->cap_classes) {
				uint32_t cap = r->cap_classes ? r->cap_classes * 2 : 64;
				struct parent_class *nk = realloc(r->classes, cap * sizeof(*nk));

				if (!nk) {
					return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
				}
				r->classes = nk;
				r->cap_classes = cap;
			}
			k = &r->classes[r->n_classes];
			k->nfields = p[5];
			used = 6;
			u = take_name(p + used, avail - used, k->name);
			if (!u) {
				return (long)off;
			}
			used += u;
			k->arrival = -1;
			for (i = 0; i < k->nfields; i++) {
				u = take_name(p + used, avail - used, k->fields[i]);
				if (!u) {
					return (long)off;
				}
				used += u;
				if (!strcmp(k->fields[i], HE_ARRIVAL_FIELD)) {
					k->arrival = (int)i;
				}
			}
			r->n_classes++;
			break;
		}
		case REC_EVENT: {
			const struct parent_class *k;
			int64_t ns;
			unsigned int n;

			if (avail < 15) {
				return (long)off;
			}
			memcpy(&id, p + 1, 4);
			n = p[14];
			if (id >= r->n_classes || n != r->classes[id].nfields) {
				goto bad;
			}
			if (avail < 15u + 8u * n) {
				return (long)off;
			}
			k = &r->classes[id];
			memcpy(&ns, p + 6, 8);
			ns = p[5] ? ns : 0;
			ns += r->h->time_offset_ns;
			r->ev.name = k->name;
			r->ev.ts = ns > 0 ? (uint64_t)ns : 0;
			r->ev.nfields = n;
			for (i = 0; i < n; i++) {
				r->ev.f[i].name = k->fields[i];
				memcpy(&r->ev.f[i].value, p + 15 + 8 * i, 8);
			}
			if (k->arrival >= 0 && r->ev.f[k->arrival].value) {
				int64_t a =
				    (int64_t)r->ev.f[k->arrival].value + r->h->time_offset_ns;

				r->ev.f[k->arrival].value = a > 0 ? (uint64_t)a : 0;
			}
			ha_event(r->h, &r->ev);
			used = 15u + 8u * n;
			break;
		}
		case REC_ERROR: {
			uint16_t elen;

			if (avail < 3) {
				return (long)off;
			}
			memcpy(&elen, p + 1, 2);
			if (elen >= DGR_ERRBUF_SIZE) {
				goto bad;
			}
			if (avail < 3u + elen) {
				return (long)off;
			}
			memcpy(r->child_error, p + 3, elen);
			r->child_error[elen] = '\0';
			used = 3u + elen;
			break;
		}
		case REC_DONE:
			r->done = true;
			used = 1;
			break;
		case REC_ALIVE:
			used = 1;
			break;
		case REC_CLOCK: {
			int64_t ns;

			if (avail < 9) {
				return (long)off;
			}
			memcpy(&ns, p + 1, 8);
			r->h->clock_origin_ns = ns;
			r->h->clock_origin_known = true;
			used = 9;
			break;
		}
		default:
			goto bad;
		}
		off += used;
	}
	return (long)off;
bad:
	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "the trace reader process sent a bad record (byte %zu)", off);
}

/* Live: calls on_tick when its time has come. Returns its result. */
static int live_tick(struct ctf_live_opts *live, double *next, char *errbuf)
{
	double now = now_s(), period = (double)live->tick_ns / 1e9;

	if (now < *next) {
		return 0;
	}
	/* a late tick (a slow terminal, a loaded machine) is not made up for */
	*next = *next + period > now ? *next + period : now + period;
	return live->on_tick(live->ctx, errbuf);
}

/* One reader child and what the parent has of its records. */
struct child {
	struct reader r;
	int fd;
	pid_t pid; /* 0: not started */
	uint8_t *buf;
	size_t have;
	double last; /* when it last sent something */
	bool eof;
};

/*
 * Reads what child c has sent. Returns 0, -DGR_E_INVAL for a bad record, or
 * -DGR_E_NOMEM (errbuf filled).
 */
static int child_read(struct child *c, char *errbuf)
{
	ssize_t got = read(c->fd, c->buf + c->have, PIPE_BUF_BYTES * 2 - c->have);
	long used;

	if (got < 0 && errno == EINTR) {
		return 0;
	}
	if (got <= 0) {
		c->eof = true;
		return 0;
	}
	c->last = now_s();
	c->have += (size_t)got;
	used = take_records(&c->r, c->buf, c->have, errbuf);
	if (used < 0) {
		return (int)used;
	}
	memmove(c->buf, c->buf + used, c->have - (size_t)used);
	c->have -= (size_t)used;
	return 0;
}

/* How a reaped child ended: 0, or -DGR_E_INVAL with errbuf filled. */
static int child_outcome(const struct child *c, int status, char *errbuf)
{
	if (c->r.child_error[0]) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", c->r.child_error);
		return -DGR_E_INVAL;
	}
	if (WIFSIGNALED(status)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "babeltrace2 crashed reading it (signal %d, %s): a damaged trace?",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		return -DGR_E_INVAL;
	}
	if (!c->r.done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "the trace reader process ended early (exit status %d)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -DGR_E_INVAL;
	}
	return 0;
}

/*
 * Reads the children's records until every one has ended, one fails or
 * stalls (or, live, until *live->stop). Returns 0, or a negative DGR_E_*
 * code with errbuf filled (without the trace's name) and *failed the index
 * of the child it is about; the children are then killed.
 */
static int read_children(struct child *c, unsigned int n, unsigned int stall_s,
			 struct ctf_live_opts *live, unsigned int *failed, char *errbuf)
{
	struct pollfd pfd[2 * CTF_LIVE_MAX_SESSIONS];
	unsigned int map[CTF_LIVE_MAX_SESSIONS];
	const unsigned int n_extra = live && live->on_extra ? live->n_extra : 0;
	double next_tick = live ? now_s() + (double)live->tick_ns / 1e9 : 0;
	unsigned int i, k, open = n;
	int ret = 0;

	*failed = 0;
	while (open > 0) {
		int wait_ms = 500, pr;

		for (i = 0, k = 0; i < n; i++) {
			if (!c[i].eof) {
				pfd[k] = (struct pollfd){ .fd = c[i].fd, .events = POLLIN };
				map[k++] = i;
			}
		}
		for (i = 0; i < n_extra; i++) {
			/* last, after the children's: pfd[k..k + n_extra) */
			pfd[k + i] = (struct pollfd){ .fd = live->extra_fds[i], .events = POLLIN };
		}
		if (live && !live->stopped) {
			double to_tick = (next_tick - now_s()) * 1e3;

			wait_ms = to_tick < 0 ? 0 : to_tick < wait_ms ? (int)to_tick + 1 : wait_ms;
		}
		pr = poll(pfd, k + n_extra, wait_ms);
		if (live && !live->stopped && live->stop && *live->stop) {
			/*
			 * SIGINT: the run so far is the report. The events the
			 * children have sent are still read, up to the pipes' end.
			 */
			live->stopped = true;
			for (i = 0; i < n; i++) {
				kill(c[i].pid, SIGKILL);
			}
		}
		if (live && !live->stopped) {
			ret = live_tick(live, &next_tick, errbuf);
			if (ret < 0) {
				goto fail;
			}
		}
		if (pr < 0 && errno != EINTR) {
			ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "poll: %s", strerror(errno));
			goto fail;
		}
		for (i = 0; n_extra && !live->stopped && pr > 0 && i < n_extra; i++) {
			if (!pfd[k + i].revents) {
				continue;
			}
			/* one call reads every source */
			ret = live->on_extra(live->ctx, errbuf);
			if (ret < 0) {
				*failed = n; /* about none of the traces */
				goto fail;
			}
			break;
		}
		for (i = 0; i < k; i++) {
			struct child *ch = &c[map[i]];

			if (pr > 0 && pfd[i].revents) {
				ret = child_read(ch, errbuf);
				open -= ch->eof ? 1 : 0;
			} else if (now_s() - ch->last >= stall_s) {
				ret =
				    dgr_errbuf_set(errbuf, DGR_E_TIMEOUT,
						   "babeltrace2 made no progress for %u s and was "
						   "stopped (a damaged trace can make it loop)",
						   stall_s);
			}
			if (ret < 0) {
				*failed = map[i];
				goto fail;
			}
		}
	}
	return 0;
fail:
	for (i = 0; i < n; i++) {
		kill(c[i].pid, SIGKILL);
	}
	return ret;
}

/*
 * Reads the trace folders of paths[0] into hs[0] (n 1), or follows the live
 * sessions at the URLs paths[0..n) (urls: their parts) into hs[0..n) when
 * live is not NULL, each in a child process of its own (see ctf_input.h).
 */
static int read_traces(const char *const *paths, const struct ctf_live_url *urls,
		       struct host_analysis *const *hs, unsigned int n,
		       const struct ctf_read_opts *opts, struct ctf_live_opts *live, char *errbuf)
{
	char msg[DGR_ERRBUF_SIZE];
	const struct trace_module *m;
	struct trace_dirs t = { .n = 0 };
	struct child *c = NULL;
	unsigned int i, failed = 0;
	int ret = 0, status;
	bool named = false; /* the error is about the trace failed */

	if (!live) {
		find_metadata(paths[0], 0, &t);
	}
	if (!live && t.n == 0) {
		return no_trace(paths[0], &t, errbuf);
	}
	if (t.too_many) {
		ret =
		    dgr_errbuf_set(errbuf, DGR_E_INVAL,
				   "%.150s: more than %d trace folders below it (or no memory for "
				   "their names): read a part of it, e.g. some chunks of archives/",
				   paths[0], MAX_TRACE_DIRS);
		goto end;
	}
	for (i = 0; i < t.n; i++) {
		ret = ctf_check_dir(t.dir[i], &hs[0]->trace_unindexed_bytes, msg);
		if (ret < 0) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "damaged trace: %.235s", msg);
			goto end;
		}
	}
	ret = trace_module_load(&m, errbuf);
	if (ret < 0) {
		goto end;
	}
	c = calloc(n, sizeof(*c));
	if (!c) {
		ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		goto end;
	}
	for (i = 0; i < n; i++) {
		int fds[2];

		c[i].fd = -1;
		c[i].r.h = hs[i];
		c[i].last = now_s();
		c[i].buf = malloc(PIPE_BUF_BYTES * 2);
		if (!c[i].buf) {
			ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
			goto end;
		}
		if (pipe2(fds, O_CLOEXEC) != 0) {
			ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "pipe: %s", strerror(errno));
			goto end;
		}
		fflush(NULL);
		c[i].pid = fork();
		if (c[i].pid < 0) {
			c[i].pid = 0;
			close(fds[0]);
			close(fds[1]);
			ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "fork: %s", strerror(errno));
			goto end;
		}
		if (c[i].pid == 0) {
			close(fds[0]);
			m->ctf_child(fds[1], t.dir, t.n, live ? paths[i] : NULL,
				     live ? &urls[i] : NULL, opts && opts->verbose);
		}
		close(fds[1]);
		c[i].fd = fds[0];
	}
	ret = read_children(c, n, opts && opts->stall_s ? opts->stall_s : CTF_STALL_S, live,
			    &failed, msg);
	named = ret < 0 && failed < n;
end:
	for (i = 0; c && i < n; i++) {
		if (c[i].pid <= 0) {
			continue;
		}
		if (ret < 0) {
			kill(c[i].pid, SIGKILL);
		}
		while (waitpid(c[i].pid, &status, 0) < 0 && errno == EINTR) {
		}
		if (ret == 0 && !(live && live->stopped)) {
			ret = child_outcome(&c[i], status, msg);
			failed = i;
			named = ret < 0;
		}
	}
	if (named) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.80s: %.170s", paths[failed], msg);
	}
	for (i = 0; c && i < n; i++) {
		if (c[i].fd >= 0) {
			close(c[i].fd);
		}
		free(c[i].buf);
		free(c[i].r.classes);
	}
	free(c);
	free_dirs(&t);
	return ret;
}

int ctf_input_read(const char *path, struct host_analysis *h, const struct ctf_read_opts *opts,
		   char *errbuf)
{
	return read_traces(&path, NULL, &h, 1, opts, NULL, errbuf);
}

int ctf_input_live(const char *const *urls, struct host_analysis *const *hs, unsigned int n,
		   const struct ctf_read_opts *opts, struct ctf_live_opts *live, char *errbuf)
{
	char msg[DGR_ERRBUF_SIZE];
	struct ctf_live_url u[CTF_LIVE_MAX_SESSIONS];
	unsigned int i;

	if (n == 0 || n > CTF_LIVE_MAX_SESSIONS) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "1..%d live sessions at a time (got %u)",
				      CTF_LIVE_MAX_SESSIONS, n);
	}
	for (i = 0; i < n; i++) {
		if (ctf_live_url_parse(urls[i], &u[i], msg) < 0) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", msg);
			return -DGR_E_INVAL;
		}
	}
	live->stopped = false;
	return read_traces(urls, u, hs, n, opts, live, errbuf);
}
