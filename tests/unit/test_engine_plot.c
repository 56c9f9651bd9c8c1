/* test_engine_plot.c — issue 34 item 5: the engine figure (`plot engine`, as the web page's rig
 * editor asks for it at 800 × 560) is not cropped: every text drawn, the title first, lies inside
 * the image, measured by the text record (render/draw.h). The sport1000's title ("…GSX-R1000-class
 * inline four — 999 cc, 4 cylinders, rev limit 13500 rpm, idle 1200 rpm") ran off both edges. */
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/engine_plot.h"
#include "sim/powertrain.h"
#include "tests/unit/test.h"

MT_TEST(engine_plot_every_text_inside_the_800x560_figure) {
  powertrain pt;
  mt_err e = {0};
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  CHECK_MSG(powertrain_load(path, &pt, &e) == 0, "%s", e.msg);
  draw_fig f;
  CHECK(draw_fig_new(&f, 800, 560, &e) == 0);
  static draw_text_log log;
  draw_text_log_attach(&log);
  ep_curves(&pt, f.cr, f.w, f.h);
  draw_text_log_attach(NULL);
  draw_fig_free(&f);
  CHECK(log.n > 10 && log.dropped == 0);
  for (int i = 0; i < log.n; i++) {
    const double* b = log.b[i].box;
    CHECK_MSG(b[0] >= 0 && b[2] <= 800 && b[1] >= 0 && b[3] <= 560, "'%s' at x %.1f..%.1f, y %.1f..%.1f: outside 800 x 560",
              log.b[i].text, b[0], b[2], b[1], b[3]);
  }
}
