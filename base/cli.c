/* cli.c — option parsing for subcommands: small, strict, and every error names the option. */
#include "base/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_init(cli* c, const char* command) {
  memset(c, 0, sizeof *c);
  c->command = command;
}

static void add(cli* c, const char* name, int kind) {
  if (c->nopts < CLI_MAX_OPTS) {
    c->opts[c->nopts].name = name;
    c->opts[c->nopts].kind = kind;
    c->nopts++;
  }
}
void cli_flag(cli* c, const char* name) { add(c, name, CLI_FLAG); }
void cli_arg(cli* c, const char* name) { add(c, name, CLI_ARG); }
void cli_multi(cli* c, const char* name) { add(c, name, CLI_MULTI); }

static cli_opt* find(cli* c, const char* name, size_t n) {
  for (int i = 0; i < c->nopts; i++)
    if (strlen(c->opts[i].name) == n && strncmp(c->opts[i].name, name, n) == 0) return &c->opts[i];
  return NULL;
}

static void (*g_help_printer)(const char* command);   /* set once by the program, before any parse */

void cli_set_help_printer(void (*print)(const char* command)) { g_help_printer = print; }

int cli_parse(cli* c, int argc, char** argv, int min_pos, int max_pos, mt_err* e) {
  int only_pos = 0;
  for (int i = 0; i < argc; i++) {
    const char* a = argv[i];
    if (!only_pos && strcmp(a, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (!only_pos && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
      if (g_help_printer) g_help_printer(c->command);
      c->help = 1;
      return MT_OK;
    }
    if (!only_pos && a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.') {
      const char* name = a + (a[1] == '-' ? 2 : 1);
      const char* eq = strchr(name, '=');
      size_t n = eq ? (size_t)(eq - name) : strlen(name);
      /* -o is the one short option: the output file. */
      if (a[1] != '-' && !(n == 1 && name[0] == 'o'))
        return mt_fail(e, MT_EINPUT, "%s: unknown option '%s' (see mototake help %s)", c->command, a, c->command);
      cli_opt* o = find(c, name, n);
      if (!o) return mt_fail(e, MT_EINPUT, "%s: unknown option '%s' (see mototake help %s)", c->command, a, c->command);
      if (o->kind == CLI_FLAG) {
        if (eq) return mt_fail(e, MT_EINPUT, "%s: option '--%s' takes no value", c->command, o->name);
        o->set = 1;
        continue;
      }
      const char* v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v) return mt_fail(e, MT_EINPUT, "%s: option '%s' needs a value", c->command, a);
      if (o->kind == CLI_MULTI) {
        if (o->nvalues >= CLI_MAX_MULTI)
          return mt_fail(e, MT_EINPUT, "%s: too many '--%s' options", c->command, o->name);
        o->values[o->nvalues++] = v;
      } else if (o->set) {
        return mt_fail(e, MT_EINPUT, "%s: option '--%s' given twice", c->command, o->name);
      }
      o->set = 1;
      o->value = v;
      continue;
    }
    if (c->npos >= CLI_MAX_POS || c->npos >= max_pos)
      return mt_fail(e, MT_EINPUT, "%s: unexpected argument '%s' (see mototake help %s)", c->command, a, c->command);
    c->pos[c->npos++] = a;
  }
  if (c->npos < min_pos)
    return mt_fail(e, MT_EINPUT, "%s: missing argument (usage: see mototake help %s)", c->command, c->command);
  return MT_OK;
}

const cli_opt* cli_get(const cli* c, const char* name) {
  for (int i = 0; i < c->nopts; i++)
    if (strcmp(c->opts[i].name, name) == 0) return &c->opts[i];
  return NULL;
}

const char* cli_str(const cli* c, const char* name, const char* dflt) {
  const cli_opt* o = cli_get(c, name);
  return o && o->set ? o->value : dflt;
}

int cli_set(const cli* c, const char* name) {
  const cli_opt* o = cli_get(c, name);
  return o && o->set;
}

/* Plain decimal only: strtod would also take leading blanks, hex ("0x1p3"), "nan" and "inf";
 * overflow (ERANGE on a huge value) and underflow to a denormal are refused too. */
static int plain_number(const char* s) {
  if (*s == '+' || *s == '-') s++;
  if (!(isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1])))) return 0;
  return !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'));
}

int cli_parse_double(const char* s, double* out) {
  if (!s || !*s || !plain_number(s)) return -1;
  char* end;
  errno = 0;
  double v = strtod(s, &end);
  if (*end || errno || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

int cli_parse_long(const char* s, long* out) {
  if (!s || !plain_number(s)) return -1;
  char* end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (*end || errno) return -1;
  *out = v;
  return 0;
}

int cli_double(const cli* c, const char* name, double dflt, double lo, double hi, double* out, mt_err* e) {
  const char* s = cli_str(c, name, NULL);
  if (!s) {
    *out = dflt;
    return MT_OK;
  }
  double v;
  if (cli_parse_double(s, &v) != 0)
    return mt_fail(e, MT_EINPUT, "%s: --%s: expected a finite number, got '%s'", c->command, name, s);
  if (v < lo || v > hi)
    return mt_fail(e, MT_EINPUT, "%s: --%s: %g is outside [%g, %g]", c->command, name, v, lo, hi);
  *out = v;
  return MT_OK;
}

int cli_int(const cli* c, const char* name, long dflt, long lo, long hi, long* out, mt_err* e) {
  const char* s = cli_str(c, name, NULL);
  if (!s) {
    *out = dflt;
    return MT_OK;
  }
  long v;
  if (cli_parse_long(s, &v) != 0)
    return mt_fail(e, MT_EINPUT, "%s: --%s: expected a whole number, got '%s'", c->command, name, s);
  if (v < lo || v > hi)
    return mt_fail(e, MT_EINPUT, "%s: --%s: %ld is outside [%ld, %ld]", c->command, name, v, lo, hi);
  *out = v;
  return MT_OK;
}

int cli_report(const mt_err* e) {
  if (e->code == MT_OK) return 0;
  fprintf(stderr, "mototake: %s\n", e->msg);
  return e->code;
}
