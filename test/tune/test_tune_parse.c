// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of libdgrtune's parsers and print layer: crypt table flags (the
 * key never leaks into the flags), regime/profile names, relevance, the
 * persistent sysctl text, and JSON escaping of hostile values.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/dm-ioctl.h>

#include "tune_priv.h"
#include "../unit/tap.h"

static void test_crypt_flags(void)
{
	struct tune_dm_table t;

	tune_dm_parse_crypt("aes-xts-plain64 deadbeefcafe 0 8:3 4096 2 same_cpu_crypt "
			    "allow_discards",
			    &t);
	TAP_EQ_U(t.same_cpu_crypt, 1, "crypt: same_cpu_crypt among 2 optional params");
	tap_ok(strcmp(t.flags, "same_cpu_crypt allow_discards") == 0, "crypt: flags listed");
	tap_ok(strstr(t.flags, "deadbeef") == NULL, "crypt: the key is not copied");

	tune_dm_parse_crypt("aes-xts-plain64 :64:logon:cryptsetup:x 0 8:3 4096", &t);
	TAP_EQ_U(t.same_cpu_crypt, 0, "crypt: no optional params, flag off");
	tap_ok(t.flags[0] == '\0', "crypt: no flags");

	tune_dm_parse_crypt("aes-xts-plain64 00 0 8:3 0 1 allow_discards same_cpu_crypt", &t);
	TAP_EQ_U(t.same_cpu_crypt, 0, "crypt: a word past the declared count is not a flag");

	tune_dm_parse_crypt("aes 00 0 8:3 0 3 sector_size:4096 same_cpu_crypt "
			    "submit_from_crypt_cpus",
			    &t);
	TAP_EQ_U(t.same_cpu_crypt, 1, "crypt: flag between parameters with values");
	TAP_EQ_I(tune_dm_parse_crypt("", &t), -DGR_E_INVAL, "crypt: empty parameters refused");
	TAP_EQ_I(tune_dm_parse_crypt("aes 00 0 8:3", &t), -DGR_E_INVAL,
		 "crypt: four fixed parameters refused");
	TAP_EQ_I(tune_dm_parse_crypt("aes 00 0 8:3 0 x same_cpu_crypt", &t), -DGR_E_INVAL,
		 "crypt: a non-numeric parameter count refused");
	TAP_EQ_I(tune_dm_parse_crypt("aes 00 0 8:3 0", &t), 0, "crypt: five fixed parameters");
}

/* Builds a DM_TABLE_STATUS answer with one target, as the kernel lays it out. */
static size_t dm_answer(char *buf, size_t size, const char *type, const char *params)
{
	struct dm_ioctl *dmi = (struct dm_ioctl *)buf;
	struct dm_target_spec *spec = (struct dm_target_spec *)(buf + sizeof(*dmi));

	memset(buf, 0, size);
	dmi->data_size = (uint32_t)size;
	dmi->data_start = sizeof(*dmi);
	dmi->target_count = 1;
	snprintf(spec->target_type, sizeof(spec->target_type), "%s", type);
	snprintf((char *)(spec + 1), size - sizeof(*dmi) - sizeof(*spec), "%s", params);
	return size;
}

static void test_dm_status(void)
{
	static _Alignas(8) char buf[2048];
	struct dm_ioctl *dmi = (struct dm_ioctl *)buf;
	struct tune_dm_table t;
	char why[128];

	dm_answer(buf, sizeof(buf), "crypt", "aes-xts-plain64 abcdef 0 8:3 4096 1 same_cpu_crypt");
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), 0,
		 "dm status: crypt answer parses");
	tap_ok(strcmp(t.target, "crypt") == 0, "dm status: target type crypt");
	TAP_EQ_U(t.same_cpu_crypt, 1, "dm status: same_cpu_crypt found");
	tap_ok(strstr(t.flags, "abcdef") == NULL, "dm status: key not copied");

	dm_answer(buf, sizeof(buf), "linear", "8:3 2048");
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), 0,
		 "dm status: linear answer parses");
	tap_ok(strcmp(t.target, "linear") == 0 && !t.same_cpu_crypt, "dm status: linear target");

	dm_answer(buf, sizeof(buf), "crypt", "x");
	dmi->target_count = 0;
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), -DGR_E_SYS,
		 "dm status: no table loaded");
	tap_ok(strcmp(why, "DM_TABLE_STATUS: no table loaded") == 0, "dm status: reason");

	dm_answer(buf, sizeof(buf), "crypt", "x");
	dmi->flags = DM_BUFFER_FULL_FLAG;
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), -DGR_E_NOSPACE,
		 "dm status: buffer full");

	dm_answer(buf, sizeof(buf), "crypt", "x");
	dmi->data_start = sizeof(buf) - 8;
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), -DGR_E_INVAL,
		 "dm status: target past the end refused");

	dm_answer(buf, sizeof(buf), "crypt", "x");
	memset(buf + sizeof(*dmi) + sizeof(struct dm_target_spec), 'A',
	       sizeof(buf) - sizeof(*dmi) - sizeof(struct dm_target_spec));
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), -DGR_E_INVAL,
		 "dm status: unterminated parameters refused");

	dm_answer(buf, sizeof(buf), "crypt", "aes 00");
	TAP_EQ_I(tune_dm_parse_status(buf, sizeof(buf), &t, why, sizeof(why)), -DGR_E_INVAL,
		 "dm status: short crypt table refused");

	dm_answer(buf, sizeof(buf), "crypt", "x");
	TAP_EQ_I(tune_dm_parse_status(buf, 16, &t, why, sizeof(why)), -DGR_E_INVAL,
		 "dm status: answer shorter than struct dm_ioctl");
}

static void test_names(void)
{
	enum dgr_tune_regime r = DGR_REGIME_ANY;
	enum dgr_tune_profile p = DGR_PROFILE_TX;

	TAP_EQ_I(dgr_tune_regime_parse("jitter-bound", &r), 0, "regime: jitter-bound parses");
	TAP_EQ_U(r, DGR_REGIME_JITTER, "regime: jitter-bound value");
	TAP_EQ_I(dgr_tune_regime_parse("throughput-bound", &r), 0, "regime: throughput-bound");
	TAP_EQ_U(r, DGR_REGIME_THROUGHPUT, "regime: throughput-bound value");
	TAP_EQ_I(dgr_tune_regime_parse("any", &r), -DGR_E_INVAL, "regime: 'any' refused");
	TAP_EQ_I(dgr_tune_regime_parse("Jitter-bound", &r), -DGR_E_INVAL, "regime: case matters");
	TAP_EQ_I(dgr_tune_profile_parse("rx-dmcrypt", &p), 0, "profile: rx-dmcrypt parses");
	TAP_EQ_U(p, DGR_PROFILE_RX_DMCRYPT, "profile: rx-dmcrypt value");
	TAP_EQ_I(dgr_tune_profile_parse("rx ", &p), -DGR_E_INVAL,
		 "profile: trailing space refused");
	tap_ok(strcmp(dgr_tune_status_name(DGR_TUNE_UNKNOWN), "unknown") == 0, "status name");
	tap_ok(strcmp(dgr_tune_regime_name(DGR_REGIME_HEALTHY), "healthy") == 0, "regime name");
}

static void test_relevance(void)
{
	struct dgr_tune_item it = { .regimes = DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT };

	TAP_EQ_U(dgr_tune_item_relevant(&it, DGR_REGIME_ANY), 1, "relevant: any regime");
	TAP_EQ_U(dgr_tune_item_relevant(&it, DGR_REGIME_JITTER), 1, "relevant: jitter");
	TAP_EQ_U(dgr_tune_item_relevant(&it, DGR_REGIME_HEALTHY), 0, "relevant: not healthy");
}

static void test_persist_text(void)
{
	struct dgr_tune_action acts[3] = {
		{ .kind = DGR_ACTION_SYSCTL, .target = "net.core.rmem_max", .value = 50000000 },
		{ .kind = DGR_ACTION_RING, .target = "eth0", .rx = 4096 },
		{ .kind = DGR_ACTION_SYSCTL,
		  .target = "vm.dirty_background_bytes",
		  .value = 192000 },
	};
	struct dgr_tune_plan plan = { .profile = DGR_PROFILE_RX, .actions = acts, .n = 3 };
	const char *want =
	    "# Written by dgrdma-tune apply --profile rx --persist\n"
	    "# (OpenCPI Ethernet transport tuning guide). Load now: sysctl --system\n"
	    "net.core.rmem_max = 50000000\n"
	    "vm.dirty_background_bytes = 192000\n";
	char buf[512], small[64];

	TAP_EQ_I(dgr_tune_persist_text(&plan, buf, sizeof(buf)), (int64_t)strlen(want),
		 "persist: length");
	tap_ok(strcmp(buf, want) == 0, "persist: exact text, rings left out");
	TAP_EQ_I(dgr_tune_persist_text(&plan, small, sizeof(small)), -DGR_E_NOSPACE,
		 "persist: too small a buffer");
}

static void test_json_escape(void)
{
	struct dgr_tune_item it;
	struct dgr_tune_report rep = { .items = &it, .n = 1, .cap = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int fixes;

	memset(&it, 0, sizeof(it));
	snprintf(it.id, sizeof(it.id), "x");
	snprintf(it.current, sizeof(it.current), "a \"quoted\"\\ value\twith\ncontrol\x01");
	it.status = DGR_TUNE_FIX;
	it.regimes = DGR_TUNE_R_HEALTHY;
	f = open_memstream(&text, &len);
	if (!f) {
		tap_ok(0, "json: open_memstream");
		return;
	}
	fixes = dgr_tune_print(f, &rep, "/", DGR_REGIME_JITTER, DGR_TUNE_PRINT_JSON);
	fclose(f);
	tap_ok(strstr(text, "\"current\":\"a \\\"quoted\\\"\\\\ value\\twith\\ncontrol\\u0001\"") !=
		   NULL,
	       "json: quotes, backslash, tab, newline and control bytes escaped");
	tap_ok(strstr(text, "\"subject\":null") != NULL, "json: empty subject is null");
	TAP_EQ_I(fixes, 0, "json: a fix not relevant to the regime is not counted");
	free(text);
}

int main(void)
{
	test_crypt_flags();
	test_dm_status();
	test_names();
	test_relevance();
	test_persist_text();
	test_json_escape();
	return tap_done();
}
