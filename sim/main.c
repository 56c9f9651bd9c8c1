/* main.c — `mototake`: one program with subcommands; the table is in sim/commands.c. */
#include "sim/cli.h"

int main(int argc, char** argv) { return cli_main(argc, argv); }
