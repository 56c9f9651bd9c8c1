/* stop.c — see stop.h. */
#define _POSIX_C_SOURCE 200809L
#include "base/stop.h"

#include <string.h>

void mt_stop_catch(void (*handler)(int), mt_stop_saved* saved) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigaction(SIGINT, &sa, &saved->old_int);
  sigaction(SIGTERM, &sa, &saved->old_term);
}

void mt_stop_release(const mt_stop_saved* saved) {
  sigaction(SIGINT, &saved->old_int, NULL);
  sigaction(SIGTERM, &saved->old_term, NULL);
}
