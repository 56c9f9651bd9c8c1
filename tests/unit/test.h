/* test.h — the unit-test harness: tests register themselves, the runner prints one line each.
 *
 *   MT_TEST(track_circle_closes) { ... CHECK(x); CHECK_NEAR(a, b, 1e-9); ... }
 *
 * A failed CHECK records the file, line and values and ends that test; the runner goes on.
 * Every test must be able to fail: assert published values, conservation laws, round trips.
 * The runner enforces two things loudly: a test that evaluates no CHECK at all fails ("asserted
 * nothing"), and registering more than MT_TEST_MAX tests fails the whole run before any test runs
 * (none is silently dropped). */
#ifndef MT_TEST_H
#define MT_TEST_H

#include <math.h>
#include <stdio.h>

typedef void (*mt_test_fn)(void);
/* The runner's table size; a registration past it makes the run fail at start. */
#define MT_TEST_MAX 1024
void mt_test_register(const char* name, mt_test_fn fn);
/* CHECK evaluations of the running test, passing or failing: every CHECK* macro counts one, so
 * that a test whose assertions never ran (an early return, an empty body) is caught. */
extern long mt_test_checks;
/* Set by CHECK on failure; the test returns at once. */
extern int mt_test_failed;
extern char mt_test_msg[1024];
/* The project root, for test data paths (tracks, rigs). */
const char* mt_test_root(void);
/* A scratch folder, unique to this run; removed at the end. */
const char* mt_test_tmpdir(void);
/* The shipped sport1000 rig (rigs/sport1000.lua), or NULL with the reason on stderr; rig_free it. */
struct rig* mt_test_load_sport(void);
/* rigs/NAME.lua with the `--set` overrides given, or NULL with the reason on stderr; rig_free it. */
struct rig* mt_test_load_rig(const char* name, const char* const* sets, int nset);
/* The sources a run embeds for the sport1000 (the rig and every module it requires) and a minimal
 * track, into src[max]; *n of them. take_open rebuilds a take's rig and holds meta timestep to
 * its step (0.001 s), so a hand-made take must carry a rig that loads. Returns the rig, whose
 * texts the sources point into: rig_free it after take_writer_open; NULL (the reason on stderr)
 * when the rig does not load. */
/* tests/data/NAME.lua, or with a / in NAME the script NAME.lua from the root ("takes/countersteer"),
 * recorded once per run into the scratch folder (run_take, quiet): the
 * take's path, or NULL with e saying why. Later calls with the same NAME return the same take. */
struct mt_err;
const char* mt_test_take(const char* name, struct mt_err* e);
struct take_source;
struct rig* mt_test_sport_sources(struct take_source* src, int max, int* n);

#define MT_TEST(name)                                                         \
  static void name(void);                                                     \
  __attribute__((constructor)) static void reg_##name(void) { mt_test_register(#name, name); } \
  static void name(void)

#define CHECK(cond)                                                           \
  do {                                                                        \
    mt_test_checks++;                                                         \
    if (!(cond)) {                                                            \
      snprintf(mt_test_msg, sizeof mt_test_msg, "%s:%d: CHECK(%s)", __FILE__, __LINE__, #cond); \
      mt_test_failed = 1;                                                     \
      return;                                                                 \
    }                                                                         \
  } while (0)

#define CHECK_MSG(cond, ...)                                                  \
  do {                                                                        \
    mt_test_checks++;                                                         \
    if (!(cond)) {                                                            \
      int n_ = snprintf(mt_test_msg, sizeof mt_test_msg, "%s:%d: ", __FILE__, __LINE__); \
      snprintf(mt_test_msg + n_, sizeof mt_test_msg - n_, __VA_ARGS__);      \
      mt_test_failed = 1;                                                     \
      return;                                                                 \
    }                                                                         \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                 \
  do {                                                                        \
    double a_ = (a), b_ = (b), t_ = (tol);                                    \
    mt_test_checks++;                                                         \
    if (!(fabs(a_ - b_) <= t_)) {                                             \
      snprintf(mt_test_msg, sizeof mt_test_msg, "%s:%d: %s = %.12g, %s = %.12g, |diff| %.3g > %.3g", \
               __FILE__, __LINE__, #a, a_, #b, b_, fabs(a_ - b_), t_);         \
      mt_test_failed = 1;                                                     \
      return;                                                                 \
    }                                                                         \
  } while (0)

/* Relative tolerance: |a-b| <= rel*max(|b|, tiny). */
#define CHECK_REL(a, b, rel)                                                  \
  do {                                                                        \
    double a_ = (a), b_ = (b), r_ = (rel);                                    \
    mt_test_checks++;                                                         \
    double s_ = fabs(b_) > 1e-300 ? fabs(b_) : 1e-300;                         \
    if (!(fabs(a_ - b_) <= r_ * s_)) {                                        \
      snprintf(mt_test_msg, sizeof mt_test_msg, "%s:%d: %s = %.12g, %s = %.12g, rel diff %.3g > %.3g", \
               __FILE__, __LINE__, #a, a_, #b, b_, fabs(a_ - b_) / s_, r_);   \
      mt_test_failed = 1;                                                     \
      return;                                                                 \
    }                                                                         \
  } while (0)

#endif
