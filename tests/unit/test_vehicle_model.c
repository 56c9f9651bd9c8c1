/* test_vehicle_model.c — the vehicle's MuJoCo models are constant after veh_new (issue 30):
 * no evaluation writes into one, not even for a moment and restored, so that a model stays what
 * MuJoCo means by it (the model constant, the data changing). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/vehicle_mj.h"
#include "tests/unit/test.h"

static size_t g_page;

/* Every MuJoCo allocation on whole pages of its own (while the hook is set), so that a model
 * can be made read-only without touching any other memory. */
static void* page_alloc(size_t n) {
  void* p = NULL;
  size_t sz = (n + g_page - 1) / g_page * g_page;
  return posix_memalign(&p, g_page, sz ? sz : g_page) ? NULL : p;
}

static size_t pages(size_t n) { return (n + g_page - 1) / g_page * g_page; }

/* In a child process: both models (struct and buffer) read-only, then the trim's evaluation.
 * Exit 0 when it ran through; a write into either model is a segmentation fault. */
static int forward_read_only(vehicle* v) {
  pid_t pid = fork();
  if (pid == 0) {
    mjModel* ms[2] = {v->m, v->m_held};
    for (int i = 0; i < 2; i++)
      if (ms[i] && (mprotect(ms[i]->buffer, pages((size_t)ms[i]->nbuffer), PROT_READ) ||
                    mprotect(ms[i], pages(sizeof *ms[i]), PROT_READ)))
        _exit(3);
    veh_forward(v);
    _exit(0);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid) return -1;
  return st;
}

MT_TEST(vehicle_trim_evaluation_never_writes_the_model) {
  /* The sport1000 has a fork-bending hinge: with steady tyres (the trim's evaluation) veh_forward
   * holds it, the path that used to set the hinge's armature in the model and put it back. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  CHECK(r->j_bend >= 0);
  g_page = (size_t)sysconf(_SC_PAGESIZE);
  mju_user_malloc = page_alloc;
  mju_user_free = free;
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  int st = -1;
  size_t nb = v ? (size_t)v->m->nbuffer : 0;
  void* before = v ? malloc(nb) : NULL;
  double bend = 0;
  if (v) {
    memcpy(before, v->m->buffer, nb);
    veh_place(v, 0, 0, 0, 0, 0.4, 20);   /* leaned at speed: the tyres' side forces bend the fork */
    v->steady_tyres = 1;
    st = forward_read_only(v);
    veh_forward(v);   /* and here, to see that it did hold and place the hinge */
    bend = veh_q(v, r->j_bend);
  }
  int same = v && memcmp(before, v->m->buffer, nb) == 0;
  free(before);
  veh_free(v);
  mju_user_malloc = NULL;
  mju_user_free = NULL;
  rig_free(r);
  CHECK_MSG(v, "%s", e.msg);
  CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the trim's evaluation with the models read-only: %s %d",
            WIFSIGNALED(st) ? "killed by signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
  CHECK(same);
  CHECK_MSG(bend != 0, "the fork-bending hinge was not placed (%g rad)", bend);
}

MT_TEST(vehicle_state_part_names_each_value) {
  /* take verify names the first state value that drifts by its part and joint (app/take_cmd.c):
   * the frame's free joint holds the first 7 positions (its quaternion included) and its 6
   * velocities come first among the velocities; the tyre states close the vector. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  int n = veh_state_size(v), nv = veh_dof_count(v), na = veh_tyre_state_count(v);
  const char* free_joint = r->joint[r->body[0].joint0].name;
  const char *j0, *j6, *j7, *jv, *ja;
  const char* p0 = veh_state_part(v, 0, &j0);
  const char* p6 = veh_state_part(v, 6, &j6);
  const char* p7 = veh_state_part(v, 7, &j7);
  const char* pv = veh_state_part(v, n - na - nv, &jv);
  const char* pa = veh_state_part(v, n - 1, &ja);
  int ok = !strcmp(p0, "position") && !strcmp(j0, free_joint) && !strcmp(p6, "position") && !strcmp(j6, free_joint) &&
           !strcmp(p7, "position") && strcmp(j7, free_joint) && !strcmp(pv, "velocity") && !strcmp(jv, free_joint) &&
           !strcmp(pa, "tyre state") && !strcmp(ja, "");
  veh_free(v);
  rig_free(r);
  /* four tyre states (κ', α' per wheel); one position more than velocities (the free joint's quaternion) */
  CHECK_MSG(na == 4 && n - nv - na == nv + 1, "%d values: %d velocities, %d tyre states", n, nv, na);
  CHECK_MSG(ok, "0: %s of %s; 6: %s of %s; 7: %s of %s; first velocity: %s of %s; last: %s of '%s'", p0, j0, p6, j6, p7, j7, pv,
            jv, pa, ja);
}
