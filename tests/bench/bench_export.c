/* bench_export.c — ex_export on a 60 s, 12-body, 1 kHz ride (the demo) to GLB at 30 and 60 fps,
 * with and without key reduction: wall time of the export alone, file size, keys. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exporters/demo.h"
#include "tests/bench/bench.h"

MT_BENCH(export_glb_60s_12_bodies) {
  ex_demo d;
  ex_demo_build(&d, 60, 0.001);
  char path[64];
  snprintf(path, sizeof path, "/tmp/mototake-bench-%ld.glb", (long)getpid());
  const double fps[] = {30, 60};
  for (int i = 0; i < 2; i++)
    for (int red = 0; red < 2; red++) {
      ex_options o;
      ex_options_default(&o);
      o.fps = fps[i];
      o.reduce_tol_pos = o.reduce_tol_ang = red ? 1e-3 : 0;
      ex_report r;
      mt_err e = {0};
      double t0 = bench_now();
      if (ex_export(&d.m, &o, path, &r, &e) != MT_OK) {
        printf("export bench: %s\n", e.msg);
        break;
      }
      printf("export 60 s × 12 bodies → GLB %2.0f fps%s: %.3f s, %ld bytes, keys %ld → %ld\n", fps[i],
             red ? " reduce 1e-3" : "            ", bench_now() - t0, r.bytes, r.keys_before, r.keys_after);
    }
  unlink(path);
  ex_demo_free(&d);
}
