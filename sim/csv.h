/* csv.h — the one place CSV fields are written (RFC 4180).
 *
 * A field containing a comma, a double quote, CR or LF is enclosed in double quotes, with every
 * double quote inside doubled; any other field is written as it is. Numbers never need quoting,
 * but names and units do: they come from take files, which anyone can write. */
#ifndef CSV_H
#define CSV_H

#include <stddef.h>
#include <stdio.h>

/* Write s as one field to f (no separator). */
void csv_field(FILE* f, const char* s);
/* The same into out (always NUL-terminated; truncated to n-1 bytes); returns the length needed. */
size_t csv_quote(char* out, size_t n, const char* s);

#endif
