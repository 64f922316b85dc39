// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The bash completion, made from the option table (option_table.c): which
 * options each command takes and what their values complete to. `make docs`
 * writes it into contrib/whydrop.bash-completion; tests/cli/run.sh fails
 * when that file is stale.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

static void completion_arm(FILE *f, const char *how)
{
	if (!strcmp(how, "@reasons"))
		fputs("\t\t_whydrop_reasons_list\n", f);
	else if (!strcmp(how, "@netns"))
		fputs("\t\tCOMPREPLY=($(compgen -W \"$(ip netns list 2>/dev/null | cut -d' ' "
		      "-f1)\" -- \"$cur\"))\n", f);
	else if (!strcmp(how, "@ifaces"))
		fputs("\t\tCOMPREPLY=($(compgen -W \"$(ls /sys/class/net 2>/dev/null)\" -- "
		      "\"$cur\"))\n", f);
	else if (!strcmp(how, "@files"))
		fputs("\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n", f);
	else
		fprintf(f, "\t\tCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", how);
}

/* "-r|--reason|--hide" for the options completed as how; false if none */
static bool completion_pattern(FILE *f, const char *how, bool *done)
{
	bool any = false;

	for (size_t i = 0; i < wd_n_options; i++) {
		const struct wd_option *o = &wd_options[i];
		bool same = how ? o->complete && !strcmp(o->complete, how) :
				  o->arg && !o->complete;

		if (!same || done[i])
			continue;
		done[i] = true;
		if (o->letter)
			fprintf(f, "%s-%c", any ? "|" : "\t", o->letter);
		fprintf(f, "%s--%s", any || o->letter ? "|" : "\t", o->name);
		any = true;
	}
	if (any)
		fputs(")\n", f);
	return any;
}

static void completion_options(FILE *f, enum wd_cmd cmd)
{
	const struct wd_option *o;
	bool any = false;

	for (size_t i = 0; (o = wd_cmd_option_next(cmd, &i));) {
		if (o->letter)
			fprintf(f, "%s-%c", any ? " " : "", o->letter);
		fprintf(f, "%s--%s", any || o->letter ? " " : "", o->name);
		any = true;
	}
}

void wd_help_completion(FILE *f)
{
	bool done[128] = { false };

	if (wd_n_options > sizeof(done) / sizeof(done[0]))
		return;

	fputs("# bash completion for whydrop(8)\n"
	      "# Generated from the option table (src/cli/option_table.c) by `make docs`: do not edit.\n"
	      "_whydrop_reasons_list()\n"
	      "{\n"
	      "\t# names of the running kernel; a comma-separated list is completed per item\n"
	      "\tlocal names pre=${cur%,*}\n"
	      "\tnames=$(whydrop reasons --json 2>/dev/null | grep -o '\"name\": \"[A-Z0-9_]*\"' "
	      "| cut -d'\"' -f4)\n"
	      "\tif [ \"$pre\" != \"$cur\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -P \"$pre,\" -W \"$names\" -- \"${cur##*,}\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$names\" -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "\n"
	      "_whydrop()\n"
	      "{\n"
	      "\tlocal cur prev cmd opts\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tcmd=${COMP_WORDS[1]}\n"
	      "\tcase $cmd in\n"
	      "\ttop|watch|count|record|serve|reasons|explain|read|help) ;;\n"
	      "\t*) cmd=top ;;\t# whydrop [OPTIONS] [EXPRESSION] is top\n"
	      "\tesac\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ] && [[ $cur != -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"top watch count record serve reasons explain read "
	      "help\" -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase $prev in\n", f);
	for (size_t i = 0; i < wd_n_options; i++) {
		const struct wd_option *o = &wd_options[i];

		if (!o->complete || done[i])
			continue;
		if (completion_pattern(f, o->complete, done)) {
			completion_arm(f, o->complete);
			fputs("\t\treturn ;;\n", f);
		}
	}
	if (completion_pattern(f, NULL, done))
		fputs("\t\treturn ;;\t# a number, a time, a name: nothing to offer\n", f);
	fputs("\tesac\n\tcase $cmd in\n", f);
	for (int c = 0; c < WD_NCMDS; c++) {
		fprintf(f, "\t%s)\n\t\topts=\"", wd_cmd_name((enum wd_cmd)c));
		completion_options(f, (enum wd_cmd)c);
		fputs("\" ;;\n", f);
	}
	fputs("\thelp)\n"
	      "\t\tCOMPREPLY=($(compgen -W \"top watch count record serve reasons explain read\" "
	      "-- \"$cur\"))\n"
	      "\t\treturn ;;\n"
	      "\tesac\n"
	      "\tif [[ $cur == -* ]] || [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\t[ \"$COMP_CWORD\" -eq 1 ] && opts=\"$opts --version\"\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase $cmd in\n"
	      "\texplain)\n"
	      "\t\t_whydrop_reasons_list ;;\n"
	      "\tread)\n"
	      "\t\tCOMPREPLY=($(compgen -f -X '!*.pcapng*' -- \"$cur\")) ;;\n"
	      "\tesac\n"
	      "}\n"
	      "complete -F _whydrop whydrop\n", f);
}
