/* jsonout.h — the one place a JSON document becomes text, on a stream or in memory.
 *
 * Commands print their --json result as one line (json_dumps, then a newline) and a few write
 * the text into a file. json_dumps returns NULL when it cannot format the document (a NULL or
 * scalar root without JSON_ENCODE_ANY, out of memory), and a write to stdout can fail (a full
 * disk, a closed pipe): both are errors here, never a NULL handed to puts.
 *
 * Contract:
 *   - mt_json_text: the text of o with jansson's flags, the caller frees it; NULL and e set
 *     (MT_EINTERNAL, "WHAT: cannot format the JSON") when json_dumps fails.
 *   - mt_json_print: o as one line on f, the text then "\n", flushed; MT_OK, or MT_EINTERNAL
 *     with e set when it cannot be formatted (nothing written) or written ("WHAT: cannot write
 *     the JSON: REASON"; part of the line may be out).
 * o stays the caller's (neither function takes a reference). The bytes are json_dumps's, so a
 * command's output is what `puts(json_dumps(o, flags))` printed. */
#ifndef MT_JSONOUT_H
#define MT_JSONOUT_H

#include <jansson.h>
#include <stdio.h>

#include "base/mt.h"

char* mt_json_text(const json_t* o, size_t flags, const char* what, mt_err* e);
int mt_json_print(FILE* f, const json_t* o, size_t flags, const char* what, mt_err* e);

#endif
