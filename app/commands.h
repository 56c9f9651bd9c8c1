/* commands.h — the program's command table (app/commands.c).
 *
 * Contract. cli_main dispatches argv (the program's own: argv[0] is the program) to the command
 * it names, one or two words (`take verify`), and returns its exit status: 0, 1 an internal
 * failure, 2 bad input (one line on stderr). It registers cli_print_help as the --help printer
 * of base/cli.h first. `mototake help` and an unknown command list the table. */
#ifndef COMMANDS_H
#define COMMANDS_H

/* The program: dispatch argv to a subcommand. */
int cli_main(int argc, char** argv);
/* Print the usage of a command (its name as the table spells it) to stdout; nothing if unknown. */
void cli_print_help(const char* command);

#endif
