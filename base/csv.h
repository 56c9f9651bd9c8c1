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

/* Read the next field of one record at *p into out (always NUL-terminated; truncated to n-1
 * bytes), the inverse of csv_field: a field in double quotes may hold commas, CR, LF and doubled
 * quotes. Advances *p past the field and its comma. Returns 1 when a field was read, 0 at the end
 * of the text, -1 for a quoted field that is not closed or has text after its closing quote. */
int csv_next(const char** p, char* out, size_t n);

#endif
