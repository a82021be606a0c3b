/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The print layer (stack/cli/print.h): the same calls write dgrdma-host's
 * "key:" text, with a container that holds nothing said to be empty,
 * latency-report's titled text, with no title over nothing, and the JSON
 * document, which keeps its empty containers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "../tap.h"

/* A host summary's shape: values, a filled and an empty array, an empty object, a line object. */
static void write_summary(struct dgr_pr *p, int gaps)
{
	dgr_pr_str(p, "mode", NULL, "rx");
	dgr_pr_obj_begin(p, "ramp", NULL);
	dgr_pr_u64(p, "gaps", NULL, (uint64_t)gaps);
	dgr_pr_arr_begin(p, "first_gaps", NULL);
	for (int i = 0; i < gaps; i++) {
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_u64(p, "at_sample", NULL, 1024u * (uint64_t)(i + 1));
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_end(p);
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "incomplete", NULL);
	dgr_pr_arr_end(p);
	dgr_pr_obj_begin(p, "threads", NULL);
	dgr_pr_obj_begin(p, "rx", NULL);
	dgr_pr_obj_end(p);
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "peers", NULL);
	dgr_pr_line_begin(p, NULL);
	dgr_pr_str(p, "address", NULL, "127.0.0.1:18078");
	dgr_pr_u64(p, "peer_id", NULL, 1);
	dgr_pr_line_end(p);
	dgr_pr_arr_end(p);
}

/* latency-report's shape: titled sections, one of them empty, one holding an empty one. */
static void write_titled(struct dgr_pr *p, int unused)
{
	(void)unused;
	dgr_pr_obj_begin(p, "dcp", "DCP (control plane)");
	dgr_pr_u64(p, "frames", NULL, 0);
	dgr_pr_obj_begin(p, "responses_by_code", "responses by code");
	dgr_pr_obj_end(p);
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "parts_apart", "Parts that do not belong together");
	dgr_pr_arr_end(p);
	dgr_pr_obj_begin(p, "outer", "Outer");
	dgr_pr_arr_begin(p, "inner", "inner:");
	dgr_pr_arr_end(p);
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "findings", "findings");
	dgr_pr_text_line(p, "- %s", "one finding");
	dgr_pr_arr_end(p);
}

/* The document shape(p, arg) writes with these flags; the caller frees it. */
static char *render(unsigned int flags, void (*shape)(struct dgr_pr *, int), int arg)
{
	struct dgr_pr p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		return NULL;
	}
	dgr_pr_begin(&p, f, flags);
	shape(&p, arg);
	dgr_pr_end(&p);
	fclose(f);
	return buf;
}

static void expect(const char *got, const char *want, const char *what)
{
	if (!tap_ok(got && strcmp(got, want) == 0, "%s", what)) {
		tap_diag("got:\n%s", got ? got : "(nothing)");
		tap_diag("want:\n%s", want);
	}
}

int main(void)
{
	char *s;

	s = render(0, write_titled, 0);
	expect(s,
	       "DCP (control plane)\n"
	       "  frames: 0\n"
	       "findings\n"
	       "  - one finding\n",
	       "titled text: a title over the first thing it holds, none over nothing (nested "
	       "either)");
	free(s);
	s = render(DGR_PR_JSON, write_titled, 0);
	expect(s,
	       "{\"dcp\":{\"frames\":0,\"responses_by_code\":{}},\"parts_apart\":[],"
	       "\"outer\":{\"inner\":[]},\"findings\":[]}\n",
	       "JSON of the titled shape: every container, empty or not");
	free(s);

	s = render(DGR_PR_TEXT_KEYS, write_summary, 2);
	expect(s,
	       "mode: rx\n"
	       "ramp:\n"
	       "  gaps: 2\n"
	       "  first_gaps:\n"
	       "    -\n"
	       "      at_sample: 1024\n"
	       "    -\n"
	       "      at_sample: 2048\n"
	       "incomplete: none\n"
	       "threads:\n"
	       "  rx: none\n"
	       "peers:\n"
	       "  - address: 127.0.0.1:18078  peer_id: 1\n",
	       "text: a key line ends at its colon, a container that holds nothing is "
	       "\"key: none\", its parent's key line still comes first");
	free(s);

	s = render(DGR_PR_TEXT_KEYS, write_summary, 0);
	expect(s,
	       "mode: rx\n"
	       "ramp:\n"
	       "  gaps: 0\n"
	       "  first_gaps: none\n"
	       "incomplete: none\n"
	       "threads:\n"
	       "  rx: none\n"
	       "peers:\n"
	       "  - address: 127.0.0.1:18078  peer_id: 1\n",
	       "text: an empty array inside an object is \"none\" at its own indent");
	free(s);

	s = render(0, write_summary, 0);
	expect(s, "mode: rx\n  gaps: 0\n  - address: 127.0.0.1:18078  peer_id: 1\n",
	       "text without TEXT_KEYS: containers without a title write no line, empty or not");
	free(s);

	s = render(DGR_PR_TEXT_KEYS | DGR_PR_JSON, write_summary, 0);
	expect(s,
	       "{\"mode\":\"rx\",\"ramp\":{\"gaps\":0,\"first_gaps\":[]},\"incomplete\":[],"
	       "\"threads\":{\"rx\":{}},\"peers\":[{\"address\":\"127.0.0.1:18078\",\"peer_id\":1}]"
	       "}\n",
	       "JSON keeps its empty containers as [] and {}");
	free(s);

	return tap_done();
}
