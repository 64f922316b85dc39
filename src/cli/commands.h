/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Subcommands; argv[0] is the subcommand's name. Each returns an exit status. */
#ifndef WD_COMMANDS_H
#define WD_COMMANDS_H

int cmd_top(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_reasons(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_serve(int argc, char **argv);

struct wd_reasons;
/* reasons -v, explain -v: where this kernel's reason names came from, on stderr. */
void wd_reasons_say_source(const char *cmd, const struct wd_reasons *r);

#endif /* WD_COMMANDS_H */
