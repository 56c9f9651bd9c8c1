/* main.c — `mototake`: one program with subcommands; the table is in app/commands.c. */
#include "app/commands.h"

int main(int argc, char** argv) { return cli_main(argc, argv); }
