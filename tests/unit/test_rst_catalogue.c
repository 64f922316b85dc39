// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The reset-reason catalogue (src/lib/knowledge/rst_catalogue_data.h): one complete
 * entry for every reason of the 6.18 tracefs format (captured), nothing
 * the kernel lacks; lookup with and without rst: and SK_RST_REASON_;
 * suggestions; the text an entry prints.
 */
#include <string.h>

#include "unit.h"
#include "entry_text.h"
#include "json.h"
#include "rst_catalogue.h"
#include "tcp_names.h"

#define FMT "tests/unit/fixtures/tcp-format/6.18.44-fc.tcp_send_reset.format"

static bool list_ok(const char *const *v)
{
	if (!v)
		return false;
	for (; *v; v++)
		if (!**v)
			return false;
	return true;
}

static void test_complete_against_6_18(void)
{
	char *text = unit_slurp(FMT);
	struct wd_tcp_names t;

	CHECK(text != NULL);
	CHECK_INT(wd_tcp_names_from_format(&t, text ? text : ""), 0);
	CHECK_INT(wd_rst_catalogue_count(), t.n_rst);
	for (size_t i = 0; i < t.n_rst; i++)
		UNIT_RECORD(wd_rst_catalogue_find(t.rst[i].name) != NULL,
			    "6.18's reset reason %s has no catalogue entry", t.rst[i].name);
	for (size_t i = 0; i < wd_rst_catalogue_count(); i++) {
		const struct wd_rst_entry *e = wd_rst_catalogue_at(i);

		UNIT_RECORD(wd_tcp_rst_by_name(&t, e->name) != NULL,
			    "catalogue entry %s is not a 6.18 reason", e->name);
		UNIT_RECORD(e->since && e->summary && e->meaning && e->settings &&
			    e->action && e->severity_note && e->reproduced && e->history,
			    "%s: a text field is missing", e->name);
		UNIT_RECORD(e->summary && strlen(e->summary) <= WD_CAT_SUMMARY_MAX,
			    "%s: summary longer than %d", e->name, WD_CAT_SUMMARY_MAX);
		UNIT_RECORD(list_ok(e->functions) && e->functions[0], "%s: no function", e->name);
		UNIT_RECORD(list_ok(e->counters) && list_ok(e->sysctls), "%s: a list", e->name);
	}
	wd_tcp_names_free(&t);
	free(text);
}

static void test_find_and_suggest(void)
{
	const struct wd_rst_entry *e = wd_rst_catalogue_find("rst:tcp_abort_on_close");

	CHECK(e != NULL && !strcmp(e->name, "TCP_ABORT_ON_CLOSE"));
	CHECK(wd_rst_catalogue_find("SK_RST_REASON_NO_SOCKET") != NULL);
	CHECK(wd_rst_catalogue_find("RST:SK_RST_REASON_INVALID_SYN") != NULL);
	CHECK(wd_rst_catalogue_find("MAX") == NULL);
	CHECK(wd_rst_catalogue_find("") == NULL);
	CHECK_STR(wd_rst_catalogue_suggest("rst:TCP_ABORT_ON_CLOSEE"), "TCP_ABORT_ON_CLOSE");
	CHECK_STR(wd_rst_catalogue_suggest("keepalive_timeout"), "TCP_KEEPALIVE_TIMEOUT");
	CHECK(wd_rst_catalogue_suggest("rst:zzzzzzzzzz") == NULL);
}

static void test_print(void)
{
	CHECK_ENTRY_TEXT(wd_rst_catalogue_print, wd_rst_catalogue_json_fields,
			 wd_rst_catalogue_find("TCP_STATE"), wd_rst_catalogue_find("INVALID_SYN"),
			 "rst:TCP_STATE: ", "tcp_disconnect",
			 "{\"name\": \"INVALID_SYN\", \"kind\": \"rst\"", "TcpExtEmbryonicRsts");
}

UNIT_MAIN(test_complete_against_6_18, test_find_and_suggest, test_print)
