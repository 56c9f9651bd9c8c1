/* cli.h — the command table and the option parser every subcommand uses.
 *
 * A subcommand is `int cmd_xxx(int argc, char** argv)` returning an exit status (0 ok,
 * 2 bad input, 1 internal failure). It is listed in app/commands.c's table with its usage text;
 * the table refers to it weakly, so a command whose module is not linked in simply is not
 * listed. Options: `--name value`, `--name=value`, flags, repeatable options, `--help`. */
#ifndef CLI_H
#define CLI_H

#include "base/mt.h"

#define CLI_MAX_OPTS 32
#define CLI_MAX_POS 16
#define CLI_MAX_MULTI 64

typedef struct cli_opt {
  const char* name;      /* without the leading dashes */
  int kind;              /* CLI_FLAG, CLI_ARG or CLI_MULTI */
  /* filled by cli_parse */
  int set;
  const char* value;
  const char* values[CLI_MAX_MULTI];
  int nvalues;
} cli_opt;

enum { CLI_FLAG, CLI_ARG, CLI_MULTI };

typedef struct cli {
  const char* command;   /* "track plan": for messages and help lookup */
  cli_opt opts[CLI_MAX_OPTS];
  int nopts;
  const char* pos[CLI_MAX_POS];
  int npos;
  int help;              /* --help was given and printed: the command should return 0 */
} cli;

/* Declare options before parsing. */
void cli_init(cli* c, const char* command);
void cli_flag(cli* c, const char* name);
void cli_arg(cli* c, const char* name);
void cli_multi(cli* c, const char* name);
/* Parse argv (argv[0] is the first word after the command). Prints help on --help. Returns
 * MT_OK or MT_EINPUT with a message naming the option. min_pos/max_pos bound positionals. */
int cli_parse(cli* c, int argc, char** argv, int min_pos, int max_pos, mt_err* e);
const cli_opt* cli_get(const cli* c, const char* name);
const char* cli_str(const cli* c, const char* name, const char* dflt);
int cli_set(const cli* c, const char* name);
/* Numbers from options, with finiteness and range checks; errors name the option. */
int cli_double(const cli* c, const char* name, double dflt, double lo, double hi, double* out, mt_err* e);
int cli_int(const cli* c, const char* name, long dflt, long lo, long hi, long* out, mt_err* e);
/* Parse a string as a finite double written in plain decimal (no blanks, hex, nan, inf or
 * overflow); 0 on success. */
int cli_parse_double(const char* s, double* out);
/* The same for a whole number in range of a long. */
int cli_parse_long(const char* s, long* out);

/* What --help prints: the program registers its printer of a command's usage (app/commands.c,
 * from its command table) before it parses; cli_parse calls it for --help or -h. Without one,
 * --help prints nothing but still ends the parse with c->help set. The base layer knows no
 * command: the table lives in the application on top. */
void cli_set_help_printer(void (*print)(const char* command));
/* Report e on stderr as "mototake: msg" and return its code (for `return cli_report(&e);`). */
int cli_report(const mt_err* e);

#endif
