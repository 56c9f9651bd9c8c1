/* stop.h — Ctrl-C and SIGTERM during a long command that writes a file: the handler only sets a
 * flag (the command's loop sees it, stops, and its output writer removes the half-written file),
 * and the previous handlers come back when the command is done. */
#ifndef MT_STOP_H
#define MT_STOP_H

#include <signal.h>

typedef struct mt_stop_saved {
  struct sigaction old_int, old_term;
} mt_stop_saved;

/* Install handler for SIGINT and SIGTERM, keeping the previous ones in *saved. */
void mt_stop_catch(void (*handler)(int), mt_stop_saved* saved);
/* Put the handlers kept by mt_stop_catch back. */
void mt_stop_release(const mt_stop_saved* saved);

#endif
