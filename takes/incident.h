/* incident.h — leaving the track and falling, watched step by step and written as take marks.
 *
 * Contract. "Off track" is both wheels beyond the tarmac and the kerb (on grass or gravel,
 * sim/track_surface.h, as the tyres found them in the last force evaluation); "back on track"
 * is both on tarmac or kerb again (between the two the state holds: no flicker at the edge).
 * Each change is a take event of kind "mark" (JSON: label, time, station, offset, the wheels'
 * surfaces), beside the runner's and the ride's "fell" mark (past 75° of lean); `take info` and
 * the summaries read them back. The last point on track is the station of the
 * last step with a wheel on tarmac or kerb and the machine upright (within INCIDENT_UPRIGHT): where
 * a ride's restart puts it back (takes/ride.h). Plain data, no allocation. */
#ifndef INCIDENT_H
#define INCIDENT_H

#include <stddef.h>

#include "sim/vehicle.h"
#include "takes/takefile.h"

#define INCIDENT_UPRIGHT (45 * 3.14159265358979323846 / 180)     /* rad */

enum { INC_NONE = 0, INC_OFF, INC_BACK };

typedef struct incident {
  int off;
  double last_on_s;          /* m, the last point on track */
  int n_off;                 /* times it left the track */
  double first_off_t, first_off_s, first_off_o;   /* s, m, m */
  int first_off_surface;     /* the front's surface then */
} incident;

/* Start watching at station s (on track, upright). */
void incident_init(incident* in, double s);
/* One step at time t, frame at station s, offset o, lean roll (rad): INC_* of what changed, with
 * the mark's JSON in js (n bytes) unless INC_NONE. */
int incident_step(incident* in, const vehicle* v, double t, double s, double o, double roll, char* js, size_t n);
/* Forget the off track (a ride's restart) and stand at station s. */
void incident_reset(incident* in, double s);
/* The take's incidents as one line ("off track at 3.41 s (station 112 m, grass); fell at …;
 * restarted at …"), from its marks and input events; "" when none. */
void incident_summary(take_reader* r, char* out, size_t n);

#endif
